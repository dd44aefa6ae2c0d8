// SPDX-License-Identifier: MIT
#include "monitoring.h"

#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/pollroundadapter.h"
#include "net/proxyhealthpoller.h"
#include "net/vllmbodyparser.h"
#include "poolsview.h"
#include "settings/consolesettings.h"
#include "state/statetracker.h"
#include "triage/triage.h"
#include "triageviews/enginedetailpanel.h"
#include "triageviews/traynotifier.h"

#include <QDateTime>
#include <QDockWidget>
#include <QUrl>

Monitoring::Monitoring(pd::ClusterStore *store, pd::MainWindow *window, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_window(window)
    , m_engines(std::make_unique<pd::MetricsPoller>(pd::parseVllmMetricsBody))
    , m_proxy(std::make_unique<pd::ProxyHealthPoller>())
    , m_tracker(std::make_unique<pd::StateTracker>(store))
    , m_triage(std::make_unique<pd::Triage>(m_tracker.get(), store))
    , m_notifier(std::make_unique<pd::TrayNotifier>(m_triage.get()))
{
    m_window->setTriage(m_tracker.get(), m_triage.get());
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_tracker.get(), &pd::StateTracker::applyProxyHealth);
    connect(m_notifier.get(), &pd::TrayNotifier::messageClicked, m_window, [this] {
        m_window->showNormal();
        m_window->raise();
        m_window->activateWindow();
        m_window->problemsDock()->show();
    });
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_window, &pd::MainWindow::showProxyHealth);
    connect(m_proxy.get(), &pd::ProxyHealthPoller::updated, m_window->poolsView(), &pd::PoolsView::showProxyHealth);
    connect(m_engines.get(), &pd::MetricsPoller::batchReady, this, [this](const pd::PollBatch &batch) {
        m_store->applyPollBatch(batch);
        if (m_series)
            m_series->ingest(pd::toPollRound(batch, m_series->engineCount(), QDateTime::currentMSecsSinceEpoch()));
    });
    connect(m_store, &pd::ClusterStore::profileChanged, this, &Monitoring::retarget);
}

Monitoring::~Monitoring()
{
    m_window->setSeriesStore(nullptr);
}

void Monitoring::start()
{
    m_proxy->start();
    m_engines->start();
    retarget();
}

void Monitoring::applySettings(const pd::ConsoleSettings &settings)
{
    m_engines->setInterval(settings.pollIntervalMs());
    m_engines->setTimeout(settings.pollTimeoutMs());
    m_proxy->setInterval(settings.proxyIntervalMs());
    m_proxy->setTimeout(settings.pollTimeoutMs());
    m_tracker->setThresholds(settings.stateThresholds());
    m_notifier->setSettings(settings.notificationSettings());
}

void Monitoring::retarget()
{
    const pd::ProxyConfig &proxy = m_store->profile().proxy;
    QUrl url;
    if (m_store->hasProfile()) {
        url.setScheme(QStringLiteral("http"));
        url.setHost(proxy.address); // IPv6 literals get their brackets from QUrl
        url.setPort(proxy.port);
    }
    m_proxy->setTarget(url);

    QList<pd::PollTarget> targets;
    const QList<pd::Engine> &engines = m_store->engines();
    for (qsizetype i = 0; i < engines.size(); ++i)
        targets.append({int(i), engines.at(i).host.toUtf8(), quint16(engines.at(i).port)});
    m_engines->setTargets(targets);

    m_window->setSeriesStore(nullptr);
    m_series = std::make_unique<pd::SeriesStore>(pd::SeriesStore::rolesOf(m_store->profile()));
    m_window->setSeriesStore(m_series.get());
}
