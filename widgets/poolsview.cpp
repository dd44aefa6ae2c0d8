// SPDX-License-Identifier: MIT
#include "poolsview.h"

#include "charts/chartcolors.h"
#include "charts/timeserieschart.h"
#include "metrics/niceaxis.h"
#include "metrics/seriesstore.h"
#include "net/proxyhealth.h"
#include "net/proxyhealthhistory.h"
#include "proxyhealthcharts.h"
#include "stateappearance.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace pd {

namespace {

const QColor kBlue = seriescolor::first();
const QColor kOrange = seriescolor::second();
const QColor kRed = seriescolor::alarm();
constexpr int kFirstChartRow = 3; // after the proxy's title and charts and the pools' titles

} // namespace

const QList<PoolsView::Row> &PoolsView::rows()
{
    const QString perSecond = QStringLiteral("req/s");
    static const QList<Row> table {
        { tr("Requests"), 1.0, QString(), 1.0,
            { { tr("running"), Metric::Running, Agg::Value, Agg::Value, kBlue },
                { tr("waiting"), Metric::Waiting, Agg::Value, Agg::Value, kOrange } } },
        { tr("Finished requests"), 1.0, perSecond, 0.0,
            { { tr("all reasons"), Metric::RequestRate, Agg::Value, Agg::Value, kBlue },
                { tr("length limit"), Metric::FinishedLengthRate, Agg::Value, Agg::Value, kOrange } } },
        { tr("Aborted and failed requests"), 1.0, perSecond, 0.0,
            { { tr("aborted"), Metric::FinishedAbortRate, Agg::Value, Agg::Value, kOrange },
                { tr("error"), Metric::FinishedErrorRate, Agg::Value, Agg::Value, kRed } } },
        { tr("Queue time"), 1000.0, QStringLiteral("ms"), 0.0,
            { { tr("p50"), Metric::QueueTimeP50, Agg::Value, Agg::Value, kBlue },
                { tr("p99"), Metric::QueueTimeP99, Agg::Value, Agg::Value, kOrange } } },
        { tr("Tokens per second"), 1.0, QStringLiteral("tok/s"), 0.0,
            { { tr("prompt"), Metric::PromptTokensRate, Agg::Value, Agg::Value, kBlue },
                { tr("generation"), Metric::GenerationTokensRate, Agg::Value, Agg::Value, kOrange } } },
        { tr("Time to first token"), 1000.0, QStringLiteral("ms"), 0.0,
            { { tr("p50"), Metric::TtftP50, Agg::Value, Agg::Value, kBlue },
                { tr("p99"), Metric::TtftP99, Agg::Value, Agg::Value, kOrange } } },
        { tr("Time per output token"), 1000.0, QStringLiteral("ms"), 0.0,
            { { tr("p50"), Metric::InterTokenP50, Agg::Value, Agg::Value, kBlue },
                { tr("p99"), Metric::InterTokenP99, Agg::Value, Agg::Value, kOrange } } },
        { tr("End-to-end latency"), 1.0, QStringLiteral("s"), 0.0,
            { { tr("p50"), Metric::E2eP50, Agg::Value, Agg::Value, kBlue },
                { tr("p99"), Metric::E2eP99, Agg::Value, Agg::Value, kOrange } } },
        { tr("KV cache usage"), 100.0, QStringLiteral("%"), 0.0,
            { { tr("mean"), Metric::KvUsage, Agg::Mean, Agg::Value, kBlue },
                { tr("max"), Metric::KvUsage, Agg::Max, Agg::Max, kOrange } } },
        { tr("Prefix cache hit rate"), 100.0, QStringLiteral("%"), 0.0,
            { { tr("hits / queried tokens"), Metric::PrefixHitRate, Agg::Value, Agg::Value, kBlue } } },
        { tr("Preemptions"), 1.0, QStringLiteral("/s"), 0.0,
            { { tr("preemptions"), Metric::PreemptionRate, Agg::Value, Agg::Value, kOrange } } },
        { tr("MTP acceptance"), 100.0, QStringLiteral("%"), 0.0,
            { { tr("accepted draft tokens"), Metric::SpecAcceptanceRate, Agg::Value, Agg::Value, kBlue } } },
    };
    return table;
}

int PoolsView::rowCount()
{
    return int(rows().size());
}

PoolsView::PoolsView(QWidget *parent)
    : QWidget(parent)
    , m_range(new QComboBox(this))
    , m_title(new QLabel(this))
    , m_proxy(new QLabel(this))
    , m_back(new QPushButton(tr("Back to pools"), this))
    , m_export(new QPushButton(tr("Export CSV…"), this))
    , m_proxyCharts(new ProxyHealthCharts(this))
{
    m_export->setToolTip(tr("Save the visible series as CSV (right-click a chart to save it as PNG)"));
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export series"), QStringLiteral("pdconsole-series.csv"), tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    setObjectName(QStringLiteral("poolsView"));
    m_range->addItem(tr("Last 5 minutes"), qint64(5 * 60 * 1000));
    m_range->addItem(tr("Last hour"), qint64(3600 * 1000));
    m_range->addItem(tr("Last 24 hours"), qint64(24 * 3600 * 1000));
    connect(m_range, &QComboBox::currentIndexChanged, this,
        [this](int i) { setRangeMs(m_range->itemData(i).toLongLong()); });
    m_back->hide();
    connect(m_back, &QPushButton::clicked, this, [this] { setEngine(-1, QString()); });

    auto *header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addWidget(m_back);
    header->addStretch(1);
    header->addWidget(m_proxy);
    header->addSpacing(16);
    header->addWidget(m_export);
    header->addWidget(m_range);

    auto *grid = new QGridLayout;
    grid->setSpacing(6);
    m_proxyTitle = new QLabel(tr("<b>Proxy</b> (/healthcheck)"), this);
    m_proxyTitle->setAlignment(Qt::AlignCenter);
    grid->addWidget(m_proxyTitle, 0, 0, 1, 2);
    grid->addWidget(m_proxyCharts, 1, 0, 1, 2);
    const QStringList columns { tr("Prefill pool"), tr("Decode pool") };
    for (int c = 0; c < 2; ++c) {
        auto *title = new QLabel(QStringLiteral("<b>%1</b>").arg(columns.at(c)), this);
        title->setAlignment(Qt::AlignCenter);
        grid->addWidget(title, 2, c);
        m_columnTitles.append(title);
        QList<TimeSeriesChart *> column;
        for (int r = 0; r < rows().size(); ++r) {
            const Row &row = rows().at(r);
            const double scale = row.scale;
            const QString unit = row.unit;
            auto *chart = new TimeSeriesChart(
                row.title,
                [scale, unit](double v) {
                    return std::isfinite(v) ? formatValue(v * scale, unit, numberLocale()) : tr("no data");
                },
                this);
            chart->setScale(row.scale);
            chart->setUnit(row.unit);
            chart->setMinimumStep(row.minStep);
            for (const Line &line : row.lines)
                chart->addLine(line.name, line.color);
            grid->addWidget(chart, r + kFirstChartRow, c);
            column.append(chart);
        }
        m_charts.append(column);
    }
    auto *content = new QWidget(this);
    content->setLayout(grid);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    scroll->setFrameShape(QFrame::NoFrame);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(header);
    layout->addWidget(scroll, 1);
    setEngine(-1, QString());
}

void PoolsView::setMarkers(const QList<ChartMarker> &prefill, const QList<ChartMarker> &decode)
{
    for (int c = 0; c < m_charts.size(); ++c) {
        for (TimeSeriesChart *chart : std::as_const(m_charts[c]))
            chart->setMarkers(c == 0 ? prefill : decode);
    }
}

TimeSeriesChart *PoolsView::chart(int column, int row) const
{
    return m_charts.value(column).value(row);
}

void PoolsView::setSeriesStore(SeriesStore *store)
{
    m_store = store;
    if (m_store)
        connect(m_store, &SeriesStore::roundIngested, this, [this] {
            if (isVisible())
                refresh();
        });
    if (m_engine >= 0 && (!m_store || m_engine >= m_store->engineCount()))
        setEngine(-1, QString());
    refresh();
}

void PoolsView::setEngine(int engine, const QString &label)
{
    m_engine = engine;
    const bool single = engine >= 0;
    m_title->setText(single ? tr("<b>Engine %1</b>").arg(label.toHtmlEscaped()) : tr("<b>Pools</b>"));
    m_back->setVisible(single);
    m_columnTitles.at(0)->setVisible(!single);
    m_columnTitles.at(1)->setVisible(!single);
    m_proxyTitle->setVisible(!single); // the proxy is the cluster's, not the engine's
    m_proxyCharts->setVisible(!single);
    for (TimeSeriesChart *chart : std::as_const(m_charts[1]))
        chart->setVisible(!single);
    refresh();
}

void PoolsView::setRangeMs(qint64 rangeMs)
{
    m_rangeMs = rangeMs;
    const int index = m_range->findData(rangeMs);
    if (index >= 0 && index != m_range->currentIndex())
        m_range->setCurrentIndex(index);
    refresh();
}

void PoolsView::showProxyHealth(const ProxyHealth &health)
{
    if (!health.reachable) {
        m_proxy->setText(severityHtml(ProblemSeverity::Critical, tr("proxy unreachable")));
        m_proxy->setToolTip(health.error);
        return;
    }
    m_proxy->setText(
        tr("proxy: %1 prefill · %2 decode instances%3")
            .arg(health.prefillInstances)
            .arg(health.decodeInstances)
            .arg(health.requestNum ? tr(" · %n request(s) in flight", nullptr, *health.requestNum) : QString()));
    m_proxy->setToolTip(QString());
}

qint64 PoolsView::rangeEndMs() const
{
    // Now, as the data knows it: the newest poll round or proxy answer (a test's clock or the wall's).
    const qint64 newest
        = std::max<qint64>(m_store ? m_store->lastRoundMs() : 0, m_proxyHistory ? m_proxyHistory->newestMs() : 0);
    return newest > 0 ? newest : QDateTime::currentMSecsSinceEpoch();
}

void PoolsView::refresh()
{
    const qint64 to = rangeEndMs();
    const qint64 from = to - m_rangeMs;
    if (m_engine < 0)
        m_proxyCharts->refresh(from, to);
    if (!m_store)
        return;
    const int columns = m_engine >= 0 ? 1 : 2;
    for (int r = 0; r < rows().size(); ++r) {
        const QList<Line> &lines = rows().at(r).lines;
        double shared = std::numeric_limits<double>::quiet_NaN();
        for (int c = 0; c < columns; ++c) {
            const Pool pool = c == 0 ? Pool::Prefill : Pool::Decode;
            TimeSeriesChart *chart = m_charts[c][r];
            const int maxPoints = 2 * chart->plotWidth();
            for (int l = 0; l < lines.size(); ++l) {
                const Line &line = lines.at(l);
                const SeriesId id = m_engine >= 0 ? SeriesId::forEngine(m_engine, line.metric, line.engineAgg)
                                                  : SeriesId::forPool(pool, line.metric, line.poolAgg);
                chart->setPoints(l, m_store->seriesView(id, from, to, maxPoints).points);
            }
            chart->setTimeRange(from, to);
            const double top = chart->dataMax();
            if (std::isfinite(top) && !(top <= shared))
                shared = top;
        }
        // The same quantity reads on the same axis in both pools.
        for (int c = 0; c < columns; ++c)
            m_charts[c][r]->setSharedMax(columns > 1 ? shared : std::numeric_limits<double>::quiet_NaN());
    }
}

void PoolsView::setProxyHistory(const ProxyHealthHistory *history)
{
    m_proxyHistory = history;
    m_proxyCharts->setHistory(history);
    if (history)
        connect(history, &ProxyHealthHistory::appended, this, [this] {
            if (isVisible() && m_engine < 0) {
                const qint64 to = rangeEndMs();
                m_proxyCharts->refresh(to - m_rangeMs, to);
            }
        });
    refresh();
}

void PoolsView::setCanaryHistory(const CanaryHistory *history, bool enabled)
{
    m_proxyCharts->setCanaryHistory(history, enabled);
    if (isVisible() && m_engine < 0) {
        const qint64 to = rangeEndMs();
        m_proxyCharts->refresh(to - m_rangeMs, to);
    }
}

ProxyHealthCharts *PoolsView::proxyCharts() const
{
    return m_proxyCharts;
}

} // namespace pd

namespace pd {

bool PoolsView::exportCsv(const QString &path, QString *error) const
{
    if (!m_store) {
        *error = tr("no cluster is open");
        return false;
    }
    const qint64 to = rangeEndMs();
    const qint64 from = to - m_rangeMs;
    const int resolution = m_store->resolutionFor(from, to) == SeriesStore::Resolution::Fine
        ? m_store->config().fineResolutionMs
        : m_store->config().coarseResolutionMs;
    const int slots = int(m_rangeMs / resolution) + 2;
    QStringList header { QStringLiteral("time") };
    QMap<qint64, QStringList> rowsByTime;
    int column = 0;
    const int columns = m_engine >= 0 ? 1 : 2;
    for (int c = 0; c < columns; ++c) {
        const Pool pool = c == 0 ? Pool::Prefill : Pool::Decode;
        const QString prefix = m_engine >= 0 ? QStringLiteral("engine")
                                             : (c == 0 ? QStringLiteral("prefill") : QStringLiteral("decode"));
        for (const Row &row : rows()) {
            for (const Line &line : row.lines) {
                const SeriesId id = m_engine >= 0 ? SeriesId::forEngine(m_engine, line.metric, line.engineAgg)
                                                  : SeriesId::forPool(pool, line.metric, line.poolAgg);
                header.append(QStringLiteral("%1 %2 %3%4")
                                  .arg(prefix, row.title, line.name,
                                      row.unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(row.unit)));
                // Full resolution: one point per slot, no decimation.
                const QList<QPointF> points = m_store->seriesView(id, from, to, 2 * slots).points;
                for (const QPointF &p : points) {
                    QStringList &cells = rowsByTime[qint64(p.x())];
                    while (cells.size() < column)
                        cells.append(QString());
                    if (cells.size() == column)
                        cells.append(std::isfinite(p.y()) ? QString::number(p.y() * row.scale, 'g', 8) : QString());
                }
                ++column;
            }
        }
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(header.join(QLatin1Char(',')).toUtf8() + '\n');
    for (auto it = rowsByTime.cbegin(); it != rowsByTime.cend(); ++it) {
        QStringList cells = it.value();
        while (cells.size() < column)
            cells.append(QString());
        file.write((QDateTime::fromMSecsSinceEpoch(it.key()).toUTC().toString(Qt::ISODateWithMs) + QLatin1Char(',')
                       + cells.join(QLatin1Char(',')))
                       .toUtf8()
            + '\n');
    }
    if (!file.commit()) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace pd
