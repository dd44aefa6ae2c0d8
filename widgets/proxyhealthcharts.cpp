// SPDX-License-Identifier: MIT
#include "proxyhealthcharts.h"

#include "charts/chartcolors.h"
#include "charts/timeserieschart.h"
#include "metrics/niceaxis.h"
#include "net/proxyhealthhistory.h"
#include "ops/canaryhistory.h"

#include <QHBoxLayout>

namespace pd {

namespace {

const QColor kHealthBlue = seriescolor::first();
const QColor kHealthOrange = seriescolor::second();

TimeSeriesChart *countChart(const QString &title, QWidget *parent)
{
    auto *chart = new TimeSeriesChart(
        title, [](double v) { return formatValue(v, QString(), numberLocale()); }, parent);
    chart->setMinimumStep(1);
    return chart;
}

} // namespace

ProxyHealthCharts::ProxyHealthCharts(QWidget *parent)
    : QWidget(parent)
    , m_requests(countChart(tr("Proxy: requests in flight"), this))
    , m_instances(countChart(tr("Proxy: instances in the pools"), this))
    , m_canaryRate(new TimeSeriesChart(
          tr("Canary: success (last minute)"), [](double v) { return formatValue(v, QStringLiteral("%"), numberLocale()); }, this))
    , m_canaryLatency(new TimeSeriesChart(
          tr("Canary: end-to-end latency"), [](double v) { return formatValue(v, QStringLiteral("ms"), numberLocale()); }, this))
{
    m_canaryRate->addLine(tr("ok"), kHealthBlue);
    m_canaryRate->setSharedMax(100);
    m_canaryLatency->addLine(tr("e2e"), kHealthOrange);
    m_requests->addLine(tr("in flight"), kHealthBlue);
    m_instances->addLine(tr("prefill"), kHealthBlue);
    m_instances->addLine(tr("decode"), kHealthOrange);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_requests);
    layout->addWidget(m_instances);
    layout->addWidget(m_canaryRate);
    layout->addWidget(m_canaryLatency);
}

void ProxyHealthCharts::setCanaryHistory(const CanaryHistory *history, bool enabled)
{
    m_canary = history;
    m_canaryEnabled = enabled;
}

void ProxyHealthCharts::setHistory(const ProxyHealthHistory *history)
{
    m_history = history;
}

void ProxyHealthCharts::refresh(qint64 fromMs, qint64 toMs)
{
    using Series = ProxyHealthHistory::Series;
    const bool any = m_history && m_history->size() > 0;
    const std::optional<bool> reports = any ? m_history->reportsRequestNum() : std::nullopt;
    const QString silent = any ? tr("the proxy has not answered /healthcheck") : tr("no data");
    m_requests->setEmptyText(reports == false ? tr("this proxy does not report requests in flight\n"
                                                   "(request_num: vllm-ascend v0.21 and later)")
                                              : silent);
    m_instances->setEmptyText(silent);
    const auto points = [&](Series series, TimeSeriesChart *chart) {
        return any ? m_history->points(series, fromMs, toMs, 2 * chart->plotWidth()) : QList<QPointF>();
    };
    m_requests->setPoints(0, points(Series::RequestsInFlight, m_requests));
    m_instances->setPoints(0, points(Series::PrefillInstances, m_instances));
    m_instances->setPoints(1, points(Series::DecodeInstances, m_instances));
    m_requests->setTimeRange(fromMs, toMs);
    m_instances->setTimeRange(fromMs, toMs);

    using Canary = CanaryHistory::Series;
    const bool canary = m_canary && m_canaryEnabled;
    const QString canaryEmpty = !m_canaryEnabled ? tr("the canary is off (Preferences ▸ Watchdog)") : tr("no canary answer yet");
    m_canaryRate->setEmptyText(canaryEmpty);
    m_canaryLatency->setEmptyText(canary && m_canary->size() > 0 ? tr("no successful canary request") : canaryEmpty);
    m_canaryRate->setPoints(0, canary ? m_canary->points(Canary::SuccessRate, fromMs, toMs, 2 * m_canaryRate->plotWidth()) : QList<QPointF>());
    m_canaryLatency->setPoints(0, canary ? m_canary->points(Canary::LatencyMs, fromMs, toMs, 2 * m_canaryLatency->plotWidth()) : QList<QPointF>());
    m_canaryRate->setTimeRange(fromMs, toMs);
    m_canaryLatency->setTimeRange(fromMs, toMs);
}

} // namespace pd
