// SPDX-License-Identifier: MIT
#include "watch/watchoperations.h"

#include "audit/auditintentfeed.h"
#include "audit/auditlog.h"
#include "net/profileproxyendpoint.h"
#include "ops/listenertimingsync.h"
#include "ops/operationjournal.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "state/statetracker.h"
#include "watch/clusterwatch.h"
#include "watch/watchdog.h"

namespace pd {

WatchOperations::WatchOperations(ClusterWatch &watch, const Profile &profile, EngineControl *control, AuditLog &audit)
    : m_watch(watch)
{
    const ProxyEndpoint endpoint = profileProxyEndpoint(profile);
    m_probe = std::make_unique<EngineProbe>();
    m_probe->setBearerToken(profileApiKey(profile));
    m_probe->setTls(profile.tls.engines, endpoint.extraCaCertificates);
    m_ctx.proxy = watch.proxy();
    m_ctx.membership = watch.membership();
    m_ctx.control = control;
    m_ctx.probe = m_probe.get();
    m_ctx.audit = &audit;
    // The heals' intents on disk before they act, in the journal the console and pdctl share.
    m_journal = std::make_unique<OperationJournal>(
        OperationJournal::pathFor(endpoint.base.toString()), endpoint.base.toString());
    m_ctx.journal = m_journal.get();
    setScaleContextProfile(m_ctx, profile);
    // Healing accepts the cost of a proxy restart when a busy proxy never finalises the drain of the
    // group it brings back (the requests in flight then fail, counted in the audit log).
    m_ctx.settings.restartProxyForDrains = true;
    StateTracker *tracker = watch.tracker();
    m_ctx.isGroupBroken = [tracker](const QString &groupId) { return tracker->isGroupBroken(groupId); };
    m_ctx.intentOf = [&watch, tracker](const QString &engineId) {
        for (int i = 0; i < tracker->engineCount(); ++i)
            if (watch.engineId(i) == engineId)
                return tracker->facts(i).intent;
        return OperatorIntent::None;
    };
    m_runner = std::make_unique<ScaleRunner>(&m_ctx);
    m_intents = std::make_unique<AuditIntentFeed>(audit.path());
}

WatchOperations::~WatchOperations()
{
    if (m_runner)
        m_runner->cancelAll();
}

void WatchOperations::attach(Watchdog &dog, const AutoHealSettings &heal)
{
    dog.setOperations(&m_ctx, m_runner.get(), heal);
    StateTracker *tracker = m_watch.tracker();
    auto indexOf = [this, tracker](const QString &engineId) {
        for (int i = 0; i < tracker->engineCount(); ++i)
            if (m_watch.engineId(i) == engineId)
                return i;
        return -1;
    };
    // What this process's operations do on purpose, as the console's tracker learns it.
    QObject::connect(m_runner.get(), &ScaleRunner::intentDeclared, m_runner.get(),
        [tracker, indexOf](const EngineRef &e, OperatorIntent intent, const QString &detail) {
            if (const int i = indexOf(e.id); i >= 0)
                tracker->setIntent(i, intent, detail);
        });
    // What the other actors do, from the shared audit log.
    QObject::connect(m_intents.get(), &AuditIntentFeed::intentRead, m_runner.get(),
        [tracker, indexOf, heal = dog.autoHeal()](const AuditIntent &a) {
            const int i = indexOf(a.engineId);
            if (i < 0)
                return;
            if (heal)
                heal->noteForeignIntent(a.engineId, a.intent, a.atMs);
            if (tracker->facts(i).intent != a.intent)
                tracker->setIntent(i, a.intent, QStringLiteral("%1, by %2").arg(a.detail, a.who), a.atMs);
        });
    m_intents->start();
    // WAITING and the wait for an idle moment are judged by the running proxy's own listener interval,
    // read from its command line, not the profile's (a proxy started with other values).
    syncListenerTiming(m_ctx);
}

} // namespace pd
