// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

// A log line: known signatures get a severity-coloured band and a marker in the margin (shape as well as
// colour), generic error lines a red margin marker; the text stays monospace and unwrapped.
namespace pd {

class LogLineDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    static QColor severityColor(int severity);
};

} // namespace pd
