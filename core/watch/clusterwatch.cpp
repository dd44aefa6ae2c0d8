// SPDX-License-Identifier: MIT
#include "watch/clusterwatch.h"

#include "cluster/clusterstore.h"
#include "net/membershipreconciler.h"
#include "net/metricspoller.h"
#include "net/profileproxyendpoint.h"
#include "net/proxyhealthpoller.h"
#include "net/vllmbodyparser.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QFile>
#include <QHash>

namespace pd {

ClusterWatch::ClusterWatch(const Profile &profile, const QString &path, ClusterWatchTiming timing, QObject *parent)
    : QObject(parent)
    , m_timing(timing)
    , m_store(std::make_unique<ClusterStore>())
{
    m_store->setProfile(profile, path);
    m_tracker = std::make_unique<StateTracker>(m_store.get());
    m_tracker->setThresholds(timing.thresholds);
    m_triage = std::make_unique<Triage>(m_tracker.get(), m_store.get());

    m_engines = std::make_unique<MetricsPoller>(parseVllmMetricsBody);
    m_engines->setInterval(timing.pollIntervalMs);
    m_engines->setTimeout(timing.timeoutMs);
    QList<PollTarget> targets;
    const QList<Engine> &engines = m_store->engines();
    for (qsizetype i = 0; i < engines.size(); ++i)
        targets.append({int(i), engines.at(i).host.toUtf8(), quint16(engines.at(i).port), profile.tls.engines,
                        QFile::encodeName(profile.tls.caFile)});
    m_engines->setTargets(targets);
    connect(m_engines.get(), &MetricsPoller::batchReady, this, [this](const PollBatch &batch) {
        m_store->applyPollBatch(batch); // the tracker derives and triage recomputes, synchronously
        ++m_rounds;
        Q_EMIT roundDone(m_rounds);
    });

    const ProxyEndpoint endpoint = profileProxyEndpoint(profile);
    m_health = std::make_unique<ProxyHealthPoller>();
    m_health->setTarget(endpoint.base);
    m_health->setExtraCaCertificates(endpoint.extraCaCertificates);
    m_health->setInterval(timing.proxyIntervalMs);
    m_health->setTimeout(timing.timeoutMs);
    connect(m_health.get(), &ProxyHealthPoller::updated, this, [this](const ProxyHealth &health) {
        ++m_proxyAnswers;
        m_tracker->applyProxyHealth(health);
    });

    m_proxy = std::make_unique<ProxyClient>();
    m_proxy->setEndpoint(endpoint);
    m_membership = std::make_unique<MembershipReconciler>(m_proxy.get());
    m_membership->setListenerTiming(int(profile.proxy.waitingRetryInterval * 1000), profile.proxy.maxWaitingRetries, 5000);
    QList<QPair<QString, Role>> configured;
    QHash<QString, int> indexOf;
    for (qsizetype i = 0; i < engines.size(); ++i) {
        configured.append({engines.at(i).id(), engines.at(i).role});
        indexOf.insert(engines.at(i).id(), int(i));
    }
    m_membership->setConfigured(configured);
    connect(m_membership.get(), &MembershipReconciler::factChanged, this,
            [this, indexOf](const QString &id, Role, MembershipFact fact) {
                const int engine = indexOf.value(id, -1);
                if (engine >= 0 && engine < m_tracker->engineCount())
                    m_tracker->setMembership(engine, fact);
            });
    connect(m_membership.get(), &MembershipReconciler::reconciled, this, [this] { m_membershipRead = true; });
}

ClusterWatch::~ClusterWatch()
{
    m_engines->stop();
    m_health->stop();
    m_membership->stop();
}

void ClusterWatch::start()
{
    m_health->start();
    m_engines->start();
    m_proxy->detectCapabilities([this](const ProxyCapabilities &caps) {
        m_caps = caps;
        // A proxy down now may come back with its lists: keep asking. One without /instances has none.
        if (caps.hasInstancesApi || !caps.reachable)
            m_membership->start(m_timing.membershipPeriodMs);
        if (!caps.hasInstancesApi)
            m_membershipRead = true;
        Q_EMIT capabilitiesKnown();
    });
}

QString ClusterWatch::engineId(int engine) const
{
    const QList<Engine> &engines = m_store->engines();
    return engine >= 0 && engine < engines.size() ? engines.at(engine).id() : QString();
}

} // namespace pd
