// SPDX-License-Identifier: MIT
#include "ops/scaleoperation.h"

#include "audit/auditintent.h"

#include "audit/auditlog.h"
#include "ops/operationjournal.h"

#include <QCoreApplication>
#include <QUuid>

namespace pd {

QString stepStatusName(StepStatus status)
{
    switch (status) {
    case StepStatus::Pending: return QStringLiteral("pending");
    case StepStatus::Running: return QStringLiteral("running");
    case StepStatus::Done: return QStringLiteral("done");
    case StepStatus::Skipped: return QStringLiteral("skipped");
    case StepStatus::Failed: return QStringLiteral("failed");
    case StepStatus::Cancelled: return QStringLiteral("cancelled");
    }
    return QStringLiteral("unknown");
}

QString operationOutcomeName(OperationOutcome o)
{
    switch (o) {
    case OperationOutcome::NotStarted: return QStringLiteral("not-started");
    case OperationOutcome::Running: return QStringLiteral("running");
    case OperationOutcome::Succeeded: return QStringLiteral("succeeded");
    case OperationOutcome::Failed: return QStringLiteral("failed");
    case OperationOutcome::Cancelled: return QStringLiteral("cancelled");
    }
    return QStringLiteral("unknown");
}

QString operationKindText(const QString &kind)
{
    static const struct {
        const char *source;
        const char *comment;
    } kinds[] = {
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "scale-out", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "scale-in", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "start", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "stop", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "group-scale-out", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "group-start", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "group-scale-in", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "group-restart", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "scale-in-restart", "operation kind"),
        QT_TRANSLATE_NOOP3("pd::ScaleOps", "scale-out-restart", "operation kind"),
    };
    for (const auto &known : kinds) {
        if (kind == QLatin1String(known.source))
            return QCoreApplication::translate("pd::ScaleOps", known.source, known.comment);
    }
    return kind;
}

QString stepLabelText(const OperationStep &step)
{
    return QCoreApplication::translate("pd::ScaleOps", step.label.toUtf8().constData());
}

ScaleOperation::ScaleOperation(QString kind, EngineRef engine, ScaleContext *context, QObject *parent)
    : QObject(parent)
    , m_ctx(context)
    , m_engine(std::move(engine))
    , m_kind(std::move(kind))
{
    m_poll.setSingleShot(true);
    connect(&m_poll, &QTimer::timeout, this, &ScaleOperation::pollTick);
}

QString ScaleOperation::intentDetail() const
{
    return m_intentDetail.isEmpty() ? operationKindText(m_kind) : m_intentDetail;
}

void ScaleOperation::addStep(const QString &id, const char *label)
{
    m_steps.append({id, QString::fromUtf8(label), StepStatus::Pending, {}, {}, {}});
}

void ScaleOperation::start()
{
    if (m_outcome != OperationOutcome::NotStarted)
        return;
    m_outcome = OperationOutcome::Running;
    m_startedAt = QDateTime::currentDateTimeUtc();
    m_opClock.start();
    if (const QString invalid = invalidProfileRefusal(*m_ctx); !invalid.isEmpty()) {
        begin(0);
        audit(m_kind, QStringLiteral("refused"), invalid, 0);
        fail(invalid);
        return;
    }
    if (m_ctx->settings.readOnly) {
        begin(0);
        audit(m_kind, QStringLiteral("refused"), QStringLiteral("read-only mode"), 0);
        fail(QStringLiteral("read-only mode: mutating actions are disabled"));
        return;
    }
    if (const QString refusal = mutationRefusal(*m_ctx); !refusal.isEmpty()) {
        begin(0);
        fail(refusal); // not audited: the audit log is what fails
        return;
    }
    // The intent on disk before anything is done: a process killed from here on leaves a trace that the
    // next console or pdctl finds (interruptedoperations.h). An intent that cannot be kept is not acted on.
    if (m_ctx->journal) {
        m_journalId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        if (!m_ctx->journal->put(journalRecord())) {
            const QString why = m_ctx->journal->lastError();
            m_journalId.clear();
            begin(0);
            audit(m_kind, QStringLiteral("refused"), QStringLiteral("operations journal: %1").arg(why), 0);
            fail(QStringLiteral("cannot record the operation before acting (%1)").arg(why));
            return;
        }
    }
    run();
}

OperationRecord ScaleOperation::journalRecord() const
{
    OperationRecord r;
    r.id = m_journalId;
    r.kind = m_kind;
    r.role = m_engine.role;
    r.unit = m_engine.id;
    r.engines = engineIds();
    r.started = m_startedAt;
    r.updated = QDateTime::currentDateTimeUtc();
    r.reached = m_reached;
    if (m_current >= 0) {
        r.step = m_steps.at(m_current).id;
        r.stepLabel = m_steps.at(m_current).label;
        r.stepStatus = stepStatusName(m_steps.at(m_current).status);
    }
    r.owner = OperationOwner::self();
    describeForJournal(r);
    return r;
}

void ScaleOperation::writeJournal()
{
    if (!m_ctx->journal || m_journalId.isEmpty())
        return;
    if (!m_ctx->journal->put(journalRecord()))
        qWarning("pdconsole: operations journal: %s", qPrintable(m_ctx->journal->lastError()));
}

void ScaleOperation::cancel()
{
    if (isFinished() || !m_cancellable)
        return;
    m_cancel = true;
    if (m_outcome == OperationOutcome::NotStarted) {
        m_outcome = OperationOutcome::Running;
        m_startedAt = QDateTime::currentDateTimeUtc();
        m_opClock.start();
        checkCancelled(QStringLiteral("nothing was done"));
        return;
    }
    if (m_poll.isActive()) {
        m_poll.stop();
        pollTick(); // the loop notices the cancel at once
    }
}

void ScaleOperation::begin(int step, const QString &detail)
{
    m_current = step;
    OperationStep &s = m_steps[step];
    s.status = StepStatus::Running;
    s.detail = detail;
    s.started = QDateTime::currentDateTimeUtc();
    m_stepClock.start();
    if (!m_reached.contains(s.id))
        m_reached.append(s.id);
    writeJournal(); // before the step acts: a remove or a stop is on disk before it is sent
    Q_EMIT stepChanged(step);
}

void ScaleOperation::progress(const QString &detail)
{
    if (m_current < 0)
        return;
    m_steps[m_current].detail = detail;
    Q_EMIT stepChanged(m_current);
}

void ScaleOperation::endStep(StepStatus status, const QString &detail)
{
    if (m_current < 0)
        return;
    OperationStep &s = m_steps[m_current];
    if (s.status != StepStatus::Running)
        return;
    s.status = status;
    if (!detail.isEmpty())
        s.detail = detail;
    s.finished = QDateTime::currentDateTimeUtc();
    audit(m_kind + QLatin1Char('.') + s.id, stepStatusName(status), s.detail, m_stepClock.elapsed());
    Q_EMIT stepChanged(m_current);
}

void ScaleOperation::done(const QString &detail)
{
    endStep(StepStatus::Done, detail);
}

void ScaleOperation::skip(int step, const QString &detail)
{
    m_current = step;
    OperationStep &s = m_steps[step];
    s.status = StepStatus::Skipped;
    s.detail = detail;
    s.started = s.finished = QDateTime::currentDateTimeUtc();
    Q_EMIT stepChanged(step);
}

void ScaleOperation::skipFrom(int step, const QString &detail)
{
    for (int i = step; i < m_steps.size(); ++i)
        skip(i, detail);
}

void ScaleOperation::fail(const QString &detail)
{
    endStep(StepStatus::Failed, detail);
    const QString label = m_current >= 0 ? m_steps.at(m_current).label : m_kind;
    finishOperation(OperationOutcome::Failed, QStringLiteral("%1 failed: %2").arg(label, detail));
}

void ScaleOperation::succeed(const QString &summary)
{
    finishOperation(OperationOutcome::Succeeded, summary);
}

bool ScaleOperation::checkCancelled(const QString &leftAs)
{
    if (!m_cancel || isFinished())
        return m_cancel;
    endStep(StepStatus::Cancelled, QStringLiteral("cancelled by the operator"));
    const QString left = m_cancelCleanup ? std::exchange(m_cancelCleanup, nullptr)() : leftAs;
    finishOperation(OperationOutcome::Cancelled, QStringLiteral("cancelled; %1").arg(left));
    return true;
}

void ScaleOperation::finishOperation(OperationOutcome outcome, const QString &summary)
{
    if (isFinished())
        return;
    m_poll.stop();
    ++m_pollSerial;
    m_outcome = outcome;
    m_summary = summary;
    m_finishedAt = QDateTime::currentDateTimeUtc();
    audit(m_kind, operationOutcomeName(outcome), summary, m_opClock.elapsed());
    // Ended, however it ended: its summary says what it left; nothing is left for the next run to repair.
    if (m_ctx->journal && !m_journalId.isEmpty() && !m_ctx->journal->drop(m_journalId))
        qWarning("pdconsole: operations journal: %s", qPrintable(m_ctx->journal->lastError()));
    Q_EMIT finished(outcome);
}

void ScaleOperation::pollUntil(int timeoutMs, std::function<void(Report)> attempt, std::function<void(bool)> then)
{
    ++m_pollSerial;
    m_pollTimeoutMs = timeoutMs;
    m_pollClock.start();
    m_attempt = std::move(attempt);
    m_then = std::move(then);
    pollTick();
}

void ScaleOperation::pollTick()
{
    if (isFinished() || !m_attempt)
        return;
    if (m_cancel) {
        ++m_pollSerial;
        m_attempt = nullptr;
        checkCancelled(QStringLiteral("stopped while waiting at \"%1\"").arg(m_current >= 0 ? m_steps.at(m_current).label : QString()));
        return;
    }
    const quint64 serial = m_pollSerial;
    m_attempt(guarded([this, serial](bool reached) {
        if (serial != m_pollSerial || isFinished())
            return;
        if (reached || m_pollClock.elapsed() >= m_pollTimeoutMs) {
            ++m_pollSerial;
            auto then = std::exchange(m_then, nullptr);
            m_attempt = nullptr;
            then(!reached);
            return;
        }
        m_poll.start(m_ctx->settings.pollMs);
    }));
}

void ScaleOperation::declareIntent(const EngineRef &engine, OperatorIntent intent)
{
    Q_EMIT intentDeclared(engine, intent, intentDetail());
    if (!m_ctx->audit)
        return;
    const AuditEntry e = intentAuditEntry(engine.role, engine.id, engine.node, engine.dpRank, intent,
                                          m_intentDetail.isEmpty() ? m_kind : m_intentDetail);
    m_ctx->audit->appendOrWarn(e);
}

void ScaleOperation::audit(const QString &action, const QString &result, const QString &detail, qint64 durationMs,
                           nlohmann::ordered_json params)
{
    if (!m_ctx->audit)
        return;
    AuditEntry e;
    e.action = action;
    e.target = QStringLiteral("%1 %2").arg(roleName(m_engine.role), m_engine.id);
    params["node"] = m_engine.node.toStdString();
    params["dp_rank"] = m_engine.dpRank;
    e.params = std::move(params);
    e.result = result;
    e.detail = detail;
    e.durationMs = durationMs;
    m_ctx->audit->appendOrWarn(std::move(e));
}

} // namespace pd
