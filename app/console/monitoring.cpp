// SPDX-License-Identifier: MIT
#include "monitoring.h"

#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/profileproxyendpoint.h"
#include "net/prometheussource.h"
#include "net/pollroundadapter.h"
#include "net/proxyhealthhistory.h"
#include "net/proxyhealthpoller.h"
#include "net/vllmbodyparser.h"
#include "ops/canaryprobe.h"
#include "poolsview.h"
#include "settings/consolesettings.h"
#include "state/statetracker.h"
#include "triage/triage.h"
#include "triageviews/enginedetailpanel.h"
#include "triageviews/traynotifier.h"

#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QUrl>

#include <algorithm>

Monitoring::Monitoring(
    const ConsoleShared &shared, std::optional<pd::PrometheusSourceConfig> prometheus, QObject *parent)
    : QObject(parent)
    , m_store(shared.store)
    , m_window(shared.window)
    , m_proxy(std::make_unique<pd::ProxyHealthPoller>())
    , m_proxyHistory(std::make_unique<pd::ProxyHealthHistory>())
    , m_canary(std::make_unique<pd::CanaryProbe>())
    , m_tracker(shared.tracker)
    , m_triage(shared.triage)
    , m_notifier(std::make_unique<pd::TrayNotifier>(m_triage))
{
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_tracker, &pd::StateTracker::applyProxyHealth);
    connect(m_notifier.get(), &pd::TrayNotifier::messageClicked, m_window, [this] {
        m_window->showNormal();
        m_window->raise();
        m_window->activateWindow();
        m_window->problemsDock()->show();
    });
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_window, &pd::MainWindow::showProxyHealth);
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_window->poolsView(), &pd::PoolsView::showProxyHealth);
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_proxyHistory.get(), &pd::ProxyHealthHistory::append);
    m_window->poolsView()->setProxyHistory(m_proxyHistory.get());
    connect(m_canary.get(), &pd::CanaryProbe::sampled, this, [this] { m_triage->setCanary(m_canary->status()); });
    if (prometheus) {
        m_prometheus = std::make_unique<pd::PrometheusSource>(*prometheus);
        connect(m_prometheus.get(), &pd::PrometheusSource::delivered, this, &Monitoring::ingestPrometheus);
        connect(m_prometheus.get(), &pd::PrometheusSource::statusChanged, this, &Monitoring::showPrometheusStatus);
    } else {
        m_engines = std::make_unique<pd::MetricsPoller>(pd::parseVllmMetricsBody);
        connect(m_engines.get(), &pd::MetricsPoller::batchReady, this, [this](const pd::PollBatch &batch) {
            m_store->applyPollBatch(batch);
            if (m_series)
                m_series->ingest(pd::toPollRound(batch, m_series->engineCount(), QDateTime::currentMSecsSinceEpoch()));
        });
    }
    connect(m_store, &pd::ClusterStore::profileChanged, this, &Monitoring::retarget);
}

Monitoring::~Monitoring()
{
    m_window->setSeriesStore(nullptr);
    m_window->poolsView()->setProxyHistory(nullptr);
    m_window->poolsView()->setCanaryHistory(nullptr, false);
}

void Monitoring::start()
{
    m_proxy->start();
    if (m_engines)
        m_engines->start();
    retarget();
    if (m_prometheus)
        m_prometheus->start();
}

void Monitoring::applySettings(const pd::ConsoleSettings &settings)
{
    // In --prometheus mode there is no engine poller: the server's scrape interval sizes the store.
    if (m_engines) {
        m_engines->setInterval(settings.pollIntervalMs());
        m_engines->setTimeout(settings.pollTimeoutMs());
        if (m_pollIntervalMs != settings.pollIntervalMs()) {
            m_pollIntervalMs = settings.pollIntervalMs();
            if (m_series) // rates and history count in poll intervals: the store expects this one
                newSeriesStore(m_pollIntervalMs);
        }
    }
    m_proxy->setInterval(settings.proxyIntervalMs());
    m_proxyHistory->setMaxGapMs(std::max(5000, 3 * settings.proxyIntervalMs())); // longer: not polled
    m_proxy->setTimeout(settings.pollTimeoutMs());
    m_tracker->setThresholds(settings.stateThresholds());
    m_notifier->setSettings(settings.notificationSettings());
    pd::CanaryOptions canary = m_canary->options();
    canary.intervalMs = settings.canaryIntervalMs();
    canary.timeoutMs = std::max(10000, 2 * canary.intervalMs);
    m_canary->setOptions(canary);
    m_canaryWanted = settings.canaryEnabled();
    updateCanary();
}

void Monitoring::updateCanary()
{
    const bool run = m_canaryWanted && m_store->hasProfile() && !m_proxyUrl.isEmpty();
    if (run)
        m_canary->start();
    else
        m_canary->stop();
    m_window->poolsView()->setCanaryHistory(&m_canary->history(), run);
    m_triage->setCanary(run ? m_canary->status() : pd::CanaryStatus{});
}

void Monitoring::retarget()
{
    QUrl url;
    if (m_store->hasProfile()) {
        const pd::ProxyEndpoint endpoint = pd::profileProxyEndpoint(m_store->profile());
        url = endpoint.base; // IPv6 literals get their brackets from QUrl
        m_proxy->setExtraCaCertificates(endpoint.extraCaCertificates);
        m_canary->setEndpoint(endpoint);
        pd::CanaryOptions canary = m_canary->options();
        canary.fallbackModel = m_store->profile().decode.servedModelName;
        m_canary->setOptions(canary);
    }
    m_proxy->setTarget(url);
    if (url != m_proxyUrl)
        m_proxyHistory->clear(); // another proxy's history is not this one's
    m_proxyUrl = url;
    updateCanary();

    const QList<pd::Engine> &engines = m_store->engines();
    if (m_engines) {
        QList<pd::PollTarget> targets;
        const pd::TlsConfig &tls = m_store->profile().tls;
        for (qsizetype i = 0; i < engines.size(); ++i)
            targets.append({int(i), engines.at(i).host.toUtf8(), quint16(engines.at(i).port), tls.engines, QFile::encodeName(tls.caFile)});
        m_engines->setTargets(targets);
    }
    if (m_prometheus) {
        std::vector<std::string> hostPorts;
        hostPorts.reserve(std::size_t(engines.size()));
        for (const pd::Engine &e : engines)
            hostPorts.push_back(pd::PromEngineMap::key(e.host.toStdString(), e.port));
        m_prometheus->setEngines(hostPorts);
        m_prometheusShown.clear();
    }
    newSeriesStore(m_pollIntervalMs);
}

void Monitoring::newSeriesStore(int pollIntervalMs)
{
    m_window->setSeriesStore(nullptr);
    pd::SeriesStoreConfig config;
    config.pollIntervalMs = pollIntervalMs;
    m_series = std::make_unique<pd::SeriesStore>(pd::SeriesStore::rolesOf(m_store->profile()), config);
    m_window->setSeriesStore(m_series.get());
}

void Monitoring::ingestPrometheus(const pd::PrometheusDelivery &delivery)
{
    // Rates and freshness count in scrape intervals: a server scraping every 15 s needs a store that
    // expects a sample every 15 s (the first delivery says, before any round is ingested).
    if (!m_series || m_series->config().pollIntervalMs != delivery.scrapeIntervalMs)
        newSeriesStore(delivery.scrapeIntervalMs);
    for (const pd::PollRound &round : delivery.rounds)
        m_series->ingest(round);
    if (!delivery.backfill && !delivery.latest.outcomes.isEmpty())
        m_store->applyPollBatch(delivery.latest);
}

void Monitoring::showPrometheusStatus(const pd::PrometheusStatus &status)
{
    using Phase = pd::PrometheusStatus::Phase;
    QString key;
    QStringList details;
    if (status.phase == Phase::Failed) {
        key = status.error;
        if (key != m_prometheusShown)
            m_window->showError(tr("Prometheus: no data"), {status.error});
    } else if (status.phase == Phase::Live) {
        if (!status.unmapped.isEmpty())
            details.append(tr("Series of %n target(s) that are no engine of this cluster: %1", nullptr,
                              int(status.unmapped.size()))
                               .arg(status.unmapped.mid(0, 8).join(QStringLiteral(", "))));
        const QList<pd::Engine> &engines = m_store->engines();
        const auto names = [&engines](const QList<int> &list) {
            QStringList out;
            for (int e : list.mid(0, 8))
                out.append(e < engines.size() ? engines.at(e).id()
                                              : QString::number(e));
            return out.join(QStringLiteral(", "));
        };
        if (!status.notTargets.isEmpty())
            details.append(tr("%n engine(s) Prometheus does not scrape: %1", nullptr, int(status.notTargets.size()))
                               .arg(names(status.notTargets)));
        if (!status.unknownGeneration.isEmpty())
            details.append(tr("%n engine(s) with an unknown metric generation: %1", nullptr,
                              int(status.unknownGeneration.size()))
                               .arg(names(status.unknownGeneration)));
        key = QStringLiteral("live ") + details.join(QLatin1Char('\n'));
        if (key == m_prometheusShown)
            return;
        if (details.isEmpty())
            m_window->showNote(tr("Prometheus: %1 engines (%2 on vLLM 0.9.1 names, %3 on current names), history "
                                  "backfilled in %4 s, refreshed every scrape (%5 s)")
                                   .arg(status.v091Engines + status.currentEngines)
                                   .arg(status.v091Engines)
                                   .arg(status.currentEngines)
                                   .arg(double(status.backfillMs) / 1000.0, 0, 'f', 1)
                                   .arg(double(status.scrapeIntervalMs) / 1000.0, 0, 'f', 0));
        else
            m_window->showError(tr("Prometheus: some engines are not seen"), details);
    } else if (status.phase == Phase::Backfilling && status.backfillChunksDone == 0) {
        key = QStringLiteral("backfill");
        if (key != m_prometheusShown)
            m_window->showNote(tr("Prometheus: reading the last hour of history…"));
    }
    if (!key.isEmpty())
        m_prometheusShown = key;
}
