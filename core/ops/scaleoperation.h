// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scalecontext.h"
#include "ops/scaletypes.h"
#include "state/enginestate.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <functional>

// An operation is an explicit state machine over named, visible steps. Each step is Pending, then
// Running (with a live detail line), then Done / Skipped / Failed / Cancelled. The operation ends
// Succeeded, Failed (with the failing step and why) or Cancelled. Every step's end is written to the
// audit log. Everything is asynchronous on the owning thread.
namespace pd {

struct OperationRecord;

enum class StepStatus { Pending, Running, Done, Skipped, Failed, Cancelled };
enum class OperationOutcome { NotStarted, Running, Succeeded, Failed, Cancelled };

QString stepStatusName(StepStatus status);        // "pending", "running", ...
QString operationOutcomeName(OperationOutcome o); // "not-started", "running", "succeeded", ...

struct OperationStep {
    QString id;          // "start-engine"
    QString label;       // "Start the engine": English (audit lines, pdctl); views show stepLabelText()
    StepStatus status = StepStatus::Pending;
    QString detail;      // live progress or the reason of the end
    QDateTime started;
    QDateTime finished;
};

// For views, in the operator's language (pd::ScaleOps): the kind ("scale-out", "stop", ...; an unknown
// one as it is) and a step's label. kind() and OperationStep::label stay English for the audit log.
QString operationKindText(const QString &kind);
QString stepLabelText(const OperationStep &step);

class ScaleOperation : public QObject {
    Q_OBJECT
public:
    ScaleOperation(QString kind, EngineRef engine, ScaleContext *context, QObject *parent = nullptr);
    ~ScaleOperation() override = default;

    const QString &kind() const { return m_kind; }       // "scale-out", "scale-in"
    const EngineRef &engine() const { return m_engine; }
    // Every engine this operation acts on (the runner serializes per engine): engine().id, or all the
    // ranks of a DP group for a group operation.
    virtual QStringList engineIds() const { return {m_engine.id}; }
    const QList<OperationStep> &steps() const { return m_steps; }
    int currentStep() const { return m_current; }
    OperationOutcome outcome() const { return m_outcome; }
    QString summary() const { return m_summary; }         // one line: what happened
    QDateTime startedAt() const { return m_startedAt; }
    QDateTime finishedAt() const { return m_finishedAt; }
    bool isFinished() const { return m_outcome == OperationOutcome::Succeeded || m_outcome == OperationOutcome::Failed
                                     || m_outcome == OperationOutcome::Cancelled; }

    void start();
    // Stops at the next safe point: a request already sent is awaited, nothing is undone; the summary
    // says what state the engine and the proxy were left in.
    void cancel();
    // False once a step is under way that must run to its end (a proxy that was stopped is started again).
    bool isCancellable() const { return m_cancellable; }

    // What the operator's intent is said to come from (intentDeclared's detail), in the operator's
    // language; default: operationKindText(kind()). A rolling restart names its parts "rolling restart".
    void setIntentDetail(const QString &detail) { m_intentDetail = detail; }
    QString intentDetail() const;

    // What the operations journal holds of it (ScaleContext::journal): written when it starts and
    // before each step begins, dropped when it ends.
    OperationRecord journalRecord() const;

Q_SIGNALS:
    void stepChanged(int index);
    void finished(pd::OperationOutcome outcome);
    // The operation is about to stop an engine, took it out of the proxy, or starts / adds it again
    // (OperatorIntent::None): the state tracker reads the silence that follows as deliberate.
    void intentDeclared(const pd::EngineRef &engine, pd::OperatorIntent intent, const QString &detail);

protected:
    // label: English, marked QT_TRANSLATE_NOOP("pd::ScaleOps", ...) so that stepLabelText() finds it.
    void addStep(const QString &id, const char *label);
    void setKind(const QString &kind) { m_kind = kind; } // before start(): audit lines and markers use it
    virtual void run() = 0; // begins the first step

    void begin(int step, const QString &detail = {});
    void progress(const QString &detail);
    void done(const QString &detail = {});
    void skip(int step, const QString &detail);
    void skipFrom(int step, const QString &detail); // `step` and every step after it
    void fail(const QString &detail);               // fails the current step and the operation
    void succeed(const QString &summary);
    // A cancel point: true (and the operation ends Cancelled) when cancel() was called.
    bool checkCancelled(const QString &leftAs);
    // What a cancel must undo from here on so that it leaves a consistent state (a group operation stops
    // the ranks it started before the group formed); returns what it left, which replaces `leftAs`.
    // Empty: nothing to undo.
    void setCancelCleanup(std::function<QString()> cleanup) { m_cancelCleanup = std::move(cleanup); }
    // From here on cancel() is refused (the view greys its Cancel out).
    void setCancellable(bool cancellable) { m_cancellable = cancellable; }
    // Says it (intentDeclared) and writes it to the audit log ("intent.stop", target "decode host:port"),
    // where another process watching the same log (a console beside pdctl) reads it (AuditIntentFeed).
    void declareIntent(const EngineRef &engine, OperatorIntent intent);

    // Calls `attempt` every pollMs until it reports true, then `then(false)`; after timeoutMs
    // `then(true)`. Cancellation ends the loop (the operation is then Cancelled by checkCancelled).
    using Report = std::function<void(bool reached)>;
    void pollUntil(int timeoutMs, std::function<void(Report)> attempt, std::function<void(bool timedOut)> then);

    // Before an add of `ids` (role `role`): those the proxy still drains would be skipped by the add and
    // removed later (§8.12). Gives the proxy settings.drainFinaliseWaitMs from the drain's start to finalise them,
    // saying its requests in flight; then, with settings.restartProxyForDrains, restarts the proxy with its current
    // lists less the other drains (ProxyRelaunch; the requests in flight fail and are counted), else fails the current
    // step naming the ways out. then(relisted): true when the restarted proxy already lists `ids` from its command
    // line, so no add is needed. Runs inside the current step.
    void clearDrainsBeforeAdd(Role role, const QStringList &ids, std::function<void(bool relisted)> then);

    // What the journal entry says beyond the kind, unit, engines and steps (a scale-in that keeps its engine).
    virtual void describeForJournal(OperationRecord &record) const { Q_UNUSED(record); }

    void audit(const QString &action, const QString &result, const QString &detail, qint64 durationMs,
               nlohmann::ordered_json params = nlohmann::ordered_json::object());

    // Wraps a callback so it does nothing once this operation is gone.
    template <typename F>
    auto guarded(F f)
    {
        return [self = QPointer<ScaleOperation>(this), f = std::move(f)](auto &&...args) {
            if (self)
                f(std::forward<decltype(args)>(args)...);
        };
    }

    ScaleContext *m_ctx;
    EngineRef m_engine;
    // Set by clearDrainsBeforeAdd when it restarted the proxy: what that cost ("3 request(s) in flight failed").
    QString m_relaunchNote;

private:
    void pollTick();
    void writeJournal();

    void endStep(StepStatus status, const QString &detail);
    void finishOperation(OperationOutcome outcome, const QString &summary);

    QString m_kind;
    QString m_intentDetail;
    QList<OperationStep> m_steps;
    int m_current = -1;
    OperationOutcome m_outcome = OperationOutcome::NotStarted;
    QString m_summary;
    QDateTime m_startedAt;
    QDateTime m_finishedAt;
    QElapsedTimer m_stepClock;
    QElapsedTimer m_opClock;
    QTimer m_poll;
    bool m_cancel = false;
    bool m_cancellable = true;
    quint64 m_pollSerial = 0;
    int m_pollTimeoutMs = 0;
    QElapsedTimer m_pollClock;
    std::function<void(Report)> m_attempt;
    std::function<void(bool)> m_then;
    std::function<QString()> m_cancelCleanup;
    QString m_journalId; // empty: not journaled
    QStringList m_reached; // the ids of the steps begun
};

} // namespace pd
