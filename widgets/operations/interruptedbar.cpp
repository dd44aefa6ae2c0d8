// SPDX-License-Identifier: MIT
#include "operations/interruptedbar.h"

#include "net/membershipreconciler.h"
#include "ops/scalecontext.h"
#include "ops/scaleoperation.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "stateappearance.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace pd {

namespace {

// How often the journal is read again: a pdctl killed beside the console shows within this.
constexpr int kCheckMs = 3000;

} // namespace

InterruptedOperationsBar::InterruptedOperationsBar(
    ScaleContext *context, ScaleRunner *runner, Confirm confirm, QWidget *parent)
    : QWidget(parent)
    , m_ctx(context)
    , m_runner(runner)
    , m_confirm(std::move(confirm))
    , m_rows(new QVBoxLayout(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("interruptedBar"));
    paintAsBar(this, Tone::Bad);
    m_rows->setContentsMargins(8, 6, 8, 6);
    m_timer->setInterval(kCheckMs);
    connect(m_timer, &QTimer::timeout, this, &InterruptedOperationsBar::check);
    hide();
    if (m_ctx->journal) {
        m_timer->start();
        QTimer::singleShot(0, this, &InterruptedOperationsBar::check);
    }
}

QString InterruptedOperationsBar::rowText(const QString &id) const
{
    return m_rowText.value(id);
}

void InterruptedOperationsBar::check()
{
    if (!m_ctx->journal)
        return;
    QString error;
    const std::optional<QList<OperationRecord>> found = m_ctx->journal->interrupted(&error);
    if (!found) {
        if (error != m_error) {
            m_error = error;
            rebuild();
        }
        return;
    }
    m_error.clear();
    // What each may have sent without living to record the answer reads as pending (only once the
    // proxy's lists were read: before that no instance reads active).
    if (m_ctx->membership && m_ctx->membership->lists())
        for (const OperationRecord &r : *found)
            assumeInterruptedMembership(r, *m_ctx->membership);
    QStringList before, now;
    for (const OperationRecord &r : std::as_const(m_records))
        before << r.id + r.updated.toString(Qt::ISODateWithMs);
    for (const OperationRecord &r : *found)
        now << r.id + r.updated.toString(Qt::ISODateWithMs);
    const bool changedSet = before != now;
    m_records = *found;
    if (changedSet) {
        m_probed = false;
        rebuild();
        Q_EMIT changed(m_records);
    }
    probe();
}

void InterruptedOperationsBar::probe()
{
    if (m_records.isEmpty() || !m_ctx->probe)
        return;
    QList<EngineRef> engines;
    for (const OperationRecord &r : std::as_const(m_records))
        for (const EngineRef &e : std::as_const(m_ctx->engines))
            if (e.role == r.role && r.engines.contains(e.id))
                engines << e;
    m_ctx->probe->poolReadings(
        engines, [self = QPointer<InterruptedOperationsBar>(this)](const PoolReadings &readings) {
            if (!self)
                return;
            if (self->m_probed && self->m_notAnswering == readings.notAnswering)
                return;
            self->m_notAnswering = readings.notAnswering;
            self->m_probed = true;
            self->rebuild();
        });
}

void InterruptedOperationsBar::rebuild()
{
    while (QLayoutItem *item = m_rows->takeAt(0)) {
        if (QWidget *w = item->widget())
            w->deleteLater();
        else if (QLayout *l = item->layout()) {
            while (QLayoutItem *inner = l->takeAt(0)) {
                if (inner->widget())
                    inner->widget()->deleteLater();
                delete inner;
            }
        }
        delete item;
    }
    m_rowText.clear();
    if (!m_error.isEmpty()) {
        auto *label = new QLabel(
            tr("Operations journal not read: %1. Operations cut short earlier are not known.").arg(m_error), this);
        label->setWordWrap(true);
        m_rows->addWidget(label);
        show();
        return;
    }
    setVisible(!m_records.isEmpty());
    for (const OperationRecord &r : std::as_const(m_records)) {
        QString finishWhy, undoWhy;
        const QString finish = repairText(r, RepairAction::Finish, &finishWhy);
        const QString undo = repairText(r, RepairAction::Undo, &undoWhy);
        QStringList lines;
        lines << tr("<b>Cut short:</b> %1").arg(describeInterrupted(r).toHtmlEscaped());
        if (m_ctx->membership)
            lines << tr("Left: %1")
                         .arg(
                             describeLeft(r, *m_ctx->membership, m_probed ? &m_notAnswering : nullptr).toHtmlEscaped());
        if (!finish.isEmpty())
            lines << tr("Finish: %1").arg(finish.toHtmlEscaped());
        if (!undo.isEmpty())
            lines << tr("Undo: %1").arg(undo.toHtmlEscaped());
        if (finish.isEmpty() || undo.isEmpty())
            lines << (finish.isEmpty() ? finishWhy : undoWhy).toHtmlEscaped();
        auto *label = new QLabel(lines.join(QStringLiteral("<br>")), this);
        label->setWordWrap(true);
        label->setTextFormat(Qt::RichText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_rowText.insert(r.id, label->text());
        auto *row = new QHBoxLayout;
        row->addWidget(label, 1);
        const QString id = r.id;
        auto button = [&](const QString &text, const QString &name, bool enabled, auto slot) {
            auto *b = new QPushButton(text, this);
            b->setObjectName(name);
            b->setEnabled(enabled);
            connect(b, &QPushButton::clicked, this, slot);
            row->addWidget(b, 0, Qt::AlignTop);
        };
        button(tr("Finish…"), QStringLiteral("finishInterrupted"), !finish.isEmpty(),
            [this, id] { repair(id, RepairAction::Finish); });
        button(tr("Undo…"), QStringLiteral("undoInterrupted"), !undo.isEmpty(),
            [this, id] { repair(id, RepairAction::Undo); });
        button(tr("Forget"), QStringLiteral("forgetInterrupted"), true, [this, id] { forget(id); });
        m_rows->addLayout(row);
    }
}

bool InterruptedOperationsBar::repair(const QString &id, RepairAction action)
{
    const auto it
        = std::find_if(m_records.cbegin(), m_records.cend(), [&id](const OperationRecord &r) { return r.id == id; });
    if (it == m_records.cend())
        return false;
    const OperationRecord record = *it;
    const bool finish = action == RepairAction::Finish;
    if (const QString refusal = mutationRefusal(*m_ctx); !refusal.isEmpty()) {
        Q_EMIT note(tr("Not repaired: %1").arg(refusal));
        return false;
    }
    QString why;
    ScaleOperation *op = makeRepair(record, action, m_ctx, &why);
    if (!op) {
        Q_EMIT note(tr("Cannot repair %1: %2").arg(record.unit, why));
        return false;
    }
    // Bringing back ranks a busy proxy still drains may take the way out, a proxy restart: the plan says so.
    QString wayOut;
    if (op->kind().endsWith(QLatin1String("scale-out")) && m_ctx->settings.restartProxyForDrains && m_ctx->membership) {
        const bool draining = std::any_of(record.engines.cbegin(), record.engines.cend(), [&](const QString &engine) {
            return m_ctx->membership->fact(engine, record.role) == MembershipFact::Draining;
        });
        if (draining)
            wayOut = tr(" The proxy still drains them: if it has not let them go %1 s after their removal once they "
                        "serve, it is restarted with its current lists (the requests in flight at that moment fail; "
                        "counted in the audit log).")
                         .arg(drainFinaliseWaitMs(*m_ctx) / 1000);
    }
    const QString title = finish ? tr("Finish the operation cut short") : tr("Undo the operation cut short");
    const QString text
        = tr("%1\n\nLeft: %2\n\n%3: %4.%5\n\nApply?")
              .arg(describeInterrupted(record),
                  m_ctx->membership ? describeLeft(record, *m_ctx->membership, m_probed ? &m_notAnswering : nullptr)
                                    : QString(),
                  finish ? tr("Finish") : tr("Undo"), repairText(record, action), wayOut);
    if (!m_confirm(title, text)) {
        delete op;
        return false;
    }
    // The repair is journaled itself from its start: the record it replaces goes first.
    if (!m_ctx->journal->drop(record.id)) {
        delete op;
        Q_EMIT note(tr("Not repaired: %1").arg(m_ctx->journal->lastError()));
        return false;
    }
    m_runner->enqueue(op);
    check();
    return true;
}

bool InterruptedOperationsBar::forget(const QString &id)
{
    if (!m_ctx->journal || !m_ctx->journal->drop(id)) {
        Q_EMIT note(tr("Not forgotten: %1").arg(m_ctx->journal ? m_ctx->journal->lastError() : QString()));
        return false;
    }
    check();
    return true;
}

} // namespace pd
