// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/dpgroups.h"
#include "cluster/profile.h"
#include "net/proxyclient.h"
#include "net/proxylistenertiming.h"
#include "ops/launchspec.h"
#include "ops/scaletypes.h"
#include "state/enginestate.h"

#include <QHash>
#include <QPointer>
#include <QSet>

#include <functional>

// What every scaling operation shares: the proxy client, the membership table, the engine control
// seam, the engine probe, the audit log, the settings (timeouts, guardrails) and the DP groups.
namespace pd {

class AuditLog;
class EngineControl;
class EngineProbe;
class MembershipReconciler;
class OperationJournal;
class ProxyClient;

struct ScaleSettings {
    bool readOnly = false;             // every mutating action refused
    // Validation errors of the profile: above 0 every mutating action is refused whatever readOnly
    // says (its values reach shells; pdctl refuses such a profile too).
    int profileErrors = 0;
    int pollMs = 500;                  // how often steps re-check the engine or the proxy
    int engineReadyTimeoutMs = 900000; // start -> /v1/models and /health (NPU engines load for minutes)
    // A coupled DP group's ranks start together and serve only when all joined: one deadline for the
    // whole group (vllm-ascend's external-DP harness waits 3,600 s; large MoE models need most of it).
    int groupReadyTimeoutMs = 3600000;
    int verifyTrafficTimeoutMs = 30000;
    int idleTimeoutMs = 600000;        // scale-in: engine's running requests to reach 0
    int stopTimeoutMs = 60000;         // stop -> nothing listens
    int listedMarginMs = 5000;         // slack on top of interval x (retries + 1)
    // Bringing back an instance the proxy still drains (a group restart, undoing a scale-in): a busy
    // proxy finalises a drain only when no request is in flight at a listener tick (proxy-api §8.3), and
    // an add of a draining instance is ignored (§8.12). The operation gives that moment this long,
    // counted from when the drain began (a group that took minutes to start again had its chances)...
    // -1: three of the proxy's listener ticks (its --waiting-retry-interval: 30 s at the default 10 s)
    // when the restart below is allowed, else idleTimeoutMs (waiting is then the only way out).
    int drainFinaliseWaitMs = -1;
    // ... then, where the confirmed plan allows it, restarts the proxy with its current lists (the
    // returning instances are on them, the other drains leave): the requests in flight then fail and are
    // counted. Without it the operation fails and names the ways out (ScaleOperation::clearDrainsBeforeAdd).
    bool restartProxyForDrains = false;
    double minPrefillPerDecode = 0;    // P:D ratio bounds (0: no bound); warning only
    double maxPrefillPerDecode = 0;
};

struct ScaleContext {
    ProxyClient *proxy = nullptr;
    MembershipReconciler *membership = nullptr;
    EngineControl *control = nullptr;
    EngineProbe *probe = nullptr;
    AuditLog *audit = nullptr;          // may be null only in tests that do not audit
    // Where every operation writes its intent before acting (operationjournal.h). Null: not journaled.
    OperationJournal *journal = nullptr;
    ScaleSettings settings;
    // Removals sent but not yet reflected in the membership table, per role: the last-instance
    // guard counts them so two parallel scale-ins cannot empty a pool.
    QHash<Role, int> removalsInFlight;
    // The profile's DP groups: coupled ones start, stop and scale as a whole (docs/scaling.md). Empty:
    // every engine is treated as an independent rank.
    DpGroups groups;
    QList<EngineRef> engines;           // the profile's engines (engineRefs), for the ranks of a group
    // How long the proxy holds an add WAITING when its own command line cannot be read: the arguments
    // this console starts it with (never fewer retries than the profile's), else the profile's values.
    ProxyListenerTiming plannedListenerTiming;
    // Set when the proxy has no /instances API: the lists on its running command line, its membership
    // for the life of the process (syncCommandLineMembership). Pools then scale by restarting it
    // (ProxyRestartScale).
    std::optional<ProxyLists> commandLineMembership;
    // Whether the monitor reads the coupled DP group as broken (a rank dead, the others hung): its
    // restart then stops the ranks at once instead of draining them. Unset: the operation's own
    // preflight decides (some ranks run, some do not).
    std::function<bool(const QString &groupId)> isGroupBroken;
    // What the operator asked of an engine (stop, drain; the console's state tracker, fed by every
    // actor's audit lines). Unset: nothing known. Restore never brings back what was taken out on purpose.
    std::function<OperatorIntent(const QString &engineId)> intentOf;
    // The requests an engine holds now (running + waiting, its last /metrics scrape), for plans that say
    // how many will fail. Unset, or nullopt for an engine: not known.
    std::function<std::optional<double>(const QString &engineId)> requestsHeldBy;
    // Operations of this context bringing back instances the proxy drains (ScaleOperation::
    // clearDrainsBeforeAdd): the instances they wait for ("decode/0.0.0.014:9000", role and proxy key),
    // kept on the lists a restart for drains starts the proxy with, and that restart while it runs (a
    // ProxyRelaunch): one at a time, joined by every operation that needs one meanwhile.
    QSet<QString> returningDrains;
    QPointer<QObject> drainRelaunch;
};

// Why no mutating action may run now, empty when they may: a profile that fails validation, read-only
// mode, or an audit log append that failed and was not acknowledged yet (an action nobody can account
// for later is not taken).
QString mutationRefusal(const ScaleContext &context);
// The first of those alone: why a profile with validation errors is not acted on, empty when it has none.
QString invalidProfileRefusal(const ScaleContext &context);
// settings.drainFinaliseWaitMs; when it is -1, three listener ticks of the proxy if the proxy restart
// is allowed as the way out, else settings.idleTimeoutMs.
int drainFinaliseWaitMs(const ScaleContext &context);

// The profile's DP groups and engines into the context, and the listener timing the console would
// start the proxy with under `launch`.
void setScaleContextProfile(ScaleContext &context, const Profile &profile, const ProxyLaunchOptions &launch = {});

} // namespace pd
