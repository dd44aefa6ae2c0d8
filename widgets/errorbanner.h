// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

class QLabel;

namespace pd {

// An inline banner for errors that do not need a dialog (a profile that failed to load). It keeps
// the text selectable so an operator can copy FILE:LINE:COLUMN.
class ErrorBanner final : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget *parent = nullptr);
    void showMessage(const QString &title, const QStringList &details);
    QString text() const;

private:
    QLabel *m_label;
};

} // namespace pd
