// SPDX-License-Identifier: MIT
#pragma once

#include "ops/interruptedoperations.h"

#include <QHash>
#include <QSet>
#include <QWidget>

#include <functional>

class QTimer;
class QVBoxLayout;

// The operations a killed console or pdctl left cut short on this proxy (the operations journal), one
// row each on the Operations tab: what it was, what it left (ranks answering, membership) and its
// repairs, Finish and Undo (confirmed, then run by the ScaleRunner like any operation) or Forget.
// Re-read every few seconds, since a pdctl beside the console can be killed at any time; what each
// left in the proxy is marked in the membership table (assumeInterruptedMembership).
namespace pd {

class ScaleRunner;
struct ScaleContext;

class InterruptedOperationsBar final : public QWidget {
    Q_OBJECT
public:
    using Confirm = std::function<bool(const QString &title, const QString &text)>;
    InterruptedOperationsBar(ScaleContext *context, ScaleRunner *runner, Confirm confirm, QWidget *parent = nullptr);

    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    const QList<OperationRecord> &records() const { return m_records; }
    QString rowText(const QString &id) const; // the row's text as shown (tests, screenshots)

    // Reads the journal now (also every few seconds).
    void check();
    // Confirmed first; false when declined, refused or impossible (note() says why).
    bool repair(const QString &id, RepairAction action);
    bool forget(const QString &id);

Q_SIGNALS:
    void changed(const QList<pd::OperationRecord> &records);
    void note(const QString &text);

private:
    void rebuild();
    void probe();

    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
    Confirm m_confirm;
    QList<OperationRecord> m_records;
    QSet<QString> m_notAnswering;
    bool m_probed = false;
    QHash<QString, QString> m_rowText;
    QVBoxLayout *m_rows;
    QTimer *m_timer;
    QString m_error; // the journal could not be read: shown instead
};

} // namespace pd
