// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaletypes.h"

#include <QList>
#include <QObject>
#include <QStringList>

// What an operator does to chosen engines (one, a selection, a node, a pool) from the topology, the
// engine detail or the Problems list, planned first and then run as ScaleOperations on the ScaleRunner
// (so every step is visible in the Operations progress tree, audited, serialized per engine and capped
// in parallel). What an action means depends on each engine's membership in the proxy:
//
//   Start            not active -> start and wait until it serves, left outside the proxy (ScaleOut, start only)
//   Start and add    not in the proxy -> start if needed, wait, add, wait until listed, verify (ScaleOut)
//   Stop             active -> out of the proxy, drained, stopped (ScaleIn); not in it -> stopped at once
//   Force stop       every engine at once, active ones taken out of the proxy first, no drain (hung engines)
//   Restart          active -> one at a time (RollingRestart): drained out, stopped, started, added back;
//                    others -> stopped and started
//   Add to proxy     not in the proxy -> ScaleOut (starts it first when it does not run)
//   Remove from proxy active -> out of the proxy and drained, left running
//
// An engine WAITING in the proxy is never stopped or removed (§8.1), and one DRAINING is not re-added
// (§8.12): both are skipped with the reason. Taking the last active instance of a pool needs the override.
// Read-only mode refuses every action. Lives on the GUI thread; plan() does no I/O (it reads the
// membership table as last reconciled; each operation re-checks at its own preflight).
namespace pd {

class RollingRestart;
class ScaleOperation;
class ScaleRunner;
struct ScaleContext;

enum class EngineAction { Start, StartAndAdd, Stop, ForceStop, Restart, AddToProxy, RemoveFromProxy };

QString engineActionName(EngineAction action); // "start", "force-stop", ... (audit, tests)
const QList<EngineAction> &allEngineActions();

struct EngineActionPlan {
    EngineAction action = EngineAction::Start;
    QString scope;                  // "node d1", "3 selected engines", ...
    QList<EngineRef> engines;       // acted on, in the order given
    QList<EngineRef> skipped;       // left alone, with skipReasons at the same index
    QStringList skipReasons;
    QStringList lines;              // what will happen, one line per group of engines
    bool destructive = false;       // stops or takes out something serving: ask first
    bool needsOverride = false;     // would take the last active instance of a pool
    QString refusal;                // set: nothing runs (read-only); English, as audited

    bool canRun(bool overrideLastInstance) const
    {
        return refusal.isEmpty() && !engines.isEmpty() && (!needsOverride || overrideLastInstance);
    }
    // "Stop 16 engines of node d1" and the lines, skipped engines with their reasons.
    QString title() const;
    QString text() const;
    QString refusalText() const; // the refusal in the operator's language
};

class EngineActions final : public QObject {
    Q_OBJECT
public:
    EngineActions(ScaleContext *context, ScaleRunner *runner, QObject *parent = nullptr);

    bool isReadOnly() const;
    EngineActionPlan plan(EngineAction action, const QList<EngineRef> &engines, const QString &scope = {}) const;
    // Enqueues the plan's operations (a restart chains its second half on the first one's success).
    // Nothing when !plan.canRun(override); a refusal is audited.
    QList<ScaleOperation *> run(const EngineActionPlan &plan, bool overrideLastInstance);

Q_SIGNALS:
    // Every operation this class enqueued, the second half of restarts included.
    void operationStarted(pd::ScaleOperation *operation);
    // A restart of active engines runs as a rolling restart (floor 1, or 0 with the override); it is
    // owned by this object and deleted when it finishes; when it pauses, resume() or cancel() it.
    void rollingRestartStarted(pd::RollingRestart *restart);

private:
    ScaleOperation *enqueueStart(const EngineRef &engine, bool addToProxy);
    ScaleOperation *enqueueStop(const EngineRef &engine, bool drain, bool overrideLastInstance);
    void chain(ScaleOperation *first, std::function<void()> then);

    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
};

} // namespace pd
