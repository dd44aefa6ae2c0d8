// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/dpgroups.h"
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
//   Restart group    every rank of the chosen engines' coupled DP groups: all out of the proxy and drained,
//                    all stopped (stragglers asked again), all started together, one readiness deadline for
//                    the group, all added back (DpGroupOperation)
//
// The ranks of a coupled DP group live and die together (docs/engine-control.md): Stop, Force stop and
// Restart of some but not all ranks of such a group skip those ranks ("would break DP group ...") unless
// the plan is made with breakGroups; a selection holding a whole group stops or restarts it as one
// group operation, and starts it as one when none of its ranks is in the proxy. Removing one rank from
// the proxy is harmless (it keeps serving the group) and allowed.
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

enum class EngineAction { Start, StartAndAdd, Stop, ForceStop, Restart, AddToProxy, RemoveFromProxy, RestartGroup };

QString engineActionName(EngineAction action); // "start", "force-stop", ... (audit, tests)
const QList<EngineAction> &allEngineActions();

struct EngineActionPlan {
    EngineAction action = EngineAction::Start;
    QString scope;                  // "node d1", "3 selected engines", ...
    QList<EngineRef> engines;       // acted on, in the order given
    QStringList groups;             // coupled DP groups acted on as a whole (all their ranks are in engines)
    QList<EngineRef> skipped;       // left alone, with skipReasons at the same index
    QStringList skipReasons;
    QStringList lines;              // what will happen, one line per group of engines
    bool destructive = false;       // stops or takes out something serving: ask first
    bool needsOverride = false;     // would take the last active instance of a pool
    bool breakGroups = false;       // planned with the override to stop or restart lone ranks of coupled groups
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
    // breakGroups: the operator's explicit override to stop or restart some ranks of a coupled DP group
    // alone (it breaks the group: the others hang until restarted).
    EngineActionPlan plan(EngineAction action, const QList<EngineRef> &engines, const QString &scope = {}, bool breakGroups = false) const;
    // Restart one coupled DP group as a whole (the Problems panel's "Restart group"); groupId as
    // DpGroup::id ("decode@192.0.0.5:13395"). Unknown group or a WAITING rank: refused. Run with run().
    EngineActionPlan planRestartGroup(const QString &groupId) const;
    const DpGroups &groups() const;
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
    // onlyGroup: planRestartGroup's group (chosen is then empty).
    EngineActionPlan plan(EngineAction action, const QList<EngineRef> &chosen, const QString &scope, bool breakGroups,
                          const DpGroup *onlyGroup) const;
    ScaleOperation *enqueueStart(const EngineRef &engine, bool addToProxy);
    // intentDetail: what the stop is said to come from (empty: the operation's kind).
    ScaleOperation *enqueueStop(const EngineRef &engine, bool drain, bool overrideLastInstance,
                                const QString &intentDetail = {});
    void chain(ScaleOperation *first, std::function<void()> then);

    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
};

} // namespace pd
