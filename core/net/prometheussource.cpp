// SPDX-License-Identifier: MIT
#include "net/prometheussource.h"

namespace pd {

PrometheusSource::PrometheusSource(const PrometheusSourceConfig &config, QObject *parent)
    : PrometheusOutlet(parent)
    , m_feed(new PrometheusFeed)
{
    qRegisterMetaType<pd::PrometheusDelivery>();
    qRegisterMetaType<pd::PrometheusStatus>();
    m_feed->setConfig(config);
    m_feed->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("prometheus"));
    connect(&m_thread, &QThread::finished, m_feed, &QObject::deleteLater);
    connect(m_feed, &PrometheusFeed::delivered, this, [this](const PrometheusDelivery &d) {
        if (d.generation == m_generation)
            Q_EMIT delivered(d);
    });
    connect(m_feed, &PrometheusFeed::statusChanged, this, [this](const PrometheusStatus &s) {
        m_status = s;
        Q_EMIT statusChanged(s);
    });
    m_thread.start();
}

PrometheusSource::~PrometheusSource()
{
    PrometheusFeed *feed = m_feed;
    QMetaObject::invokeMethod(
        m_feed, [feed] { feed->stop(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void PrometheusSource::setEngines(const std::vector<std::string> &hostPorts)
{
    const quint64 generation = ++m_generation;
    PrometheusFeed *feed = m_feed;
    QMetaObject::invokeMethod(m_feed, [feed, hostPorts, generation] { feed->setEngines(hostPorts, generation); });
}

void PrometheusSource::start()
{
    PrometheusFeed *feed = m_feed;
    QMetaObject::invokeMethod(m_feed, [feed] { feed->start(); });
}

void PrometheusSource::stop()
{
    PrometheusFeed *feed = m_feed;
    QMetaObject::invokeMethod(m_feed, [feed] { feed->stop(); });
}

} // namespace pd
