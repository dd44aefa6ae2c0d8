// SPDX-License-Identifier: MIT
#include "triageviews/enginedetailpanel.h"

#include "cluster/clusterstore.h"
#include "metrics/seriesstore.h"
#include "state/statetracker.h"
#include "triageviews/sparkline.h"
#include "apptheme.h"
#include "stateappearance.h"

#include <QDateTime>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <optional>

namespace pd {

void EngineDetailPanel::setLogAvailable(bool available)
{
    m_logAvailable = available;
    for (QPushButton *b : std::as_const(m_actions)) {
        if (b->property("pdLog").toBool()) {
            b->setEnabled(available);
            b->setToolTip(b->property("pdTip").toString());
        }
    }
}

void EngineDetailPanel::setActionsAvailable(bool available, const QString &whyNot)
{
    for (QPushButton *b : std::as_const(m_actions)) {
        if (b->property("pdLog").toBool() && m_logAvailable)
            continue; // reading a log changes nothing: read-only mode keeps it
        b->setEnabled(available);
        b->setToolTip(available ? b->property("pdTip").toString() : whyNot);
    }
}

namespace {

constexpr qint64 kChartWindowMs = 5 * 60 * 1000;

struct ChartSpec {
    const char *title;
    Metric metric;
    double scale;
    const char *unit;
};
const ChartSpec kCharts[] = {
    { QT_TRANSLATE_NOOP("pd::EngineDetailPanel", "Generation tokens/s"), Metric::GenerationTokensRate, 1, "" },
    { QT_TRANSLATE_NOOP("pd::EngineDetailPanel", "Prompt tokens/s"), Metric::PromptTokensRate, 1, "" },
    { QT_TRANSLATE_NOOP("pd::EngineDetailPanel", "Running requests"), Metric::Running, 1, "" },
    { QT_TRANSLATE_NOOP("pd::EngineDetailPanel", "Waiting requests"), Metric::Waiting, 1, "" },
    { QT_TRANSLATE_NOOP("pd::EngineDetailPanel", "KV cache usage"), Metric::KvUsage, 100, " %" },
    { QT_TRANSLATE_NOOP("pd::EngineDetailPanel", "Inter-token latency p99"), Metric::InterTokenP99, 1000, " ms" },
};

QString ageOf(std::int64_t atMs, std::int64_t nowMs)
{
    return atMs > 0 ? EngineDetailPanel::tr("%1 ago").arg(formatAge(nowMs - atMs)) : EngineDetailPanel::tr("never");
}

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

} // namespace

EngineDetailPanel::EngineDetailPanel(ClusterStore *store, StateTracker *tracker, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_tracker(tracker)
    , m_title(new QLabel(this))
    , m_state(new QLabel(this))
    , m_identity(new QLabel(this))
    , m_launcher(new QPlainTextEdit(this))
    , m_facts(new QLabel(this))
    , m_events(new QListWidget(this))
    , m_body(new QWidget(this))
    , m_placeholder(new QLabel(tr("Select an engine (in the table or the Problems list) to see its detail."), this))
{
    setObjectName(QStringLiteral("engineDetail"));
    m_title->setObjectName(QStringLiteral("detailTitle"));
    m_state->setObjectName(QStringLiteral("detailState"));
    m_facts->setObjectName(QStringLiteral("detailFacts"));
    m_events->setObjectName(QStringLiteral("detailEvents"));
    m_state->setWordWrap(true);
    m_state->setTextFormat(Qt::RichText);
    m_identity->setTextFormat(Qt::RichText);
    m_identity->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setTextFormat(Qt::RichText);
    m_facts->setWordWrap(true);
    m_identity->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_launcher->setReadOnly(true);
    m_launcher->setMaximumHeight(fontMetrics().height() * 4 + 12);
    m_launcher->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_events->setMaximumHeight(fontMetrics().height() * 8 + 8);
    m_events->setWordWrap(true);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);

    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    auto *charts = new QGridLayout;
    charts->setHorizontalSpacing(10);
    int i = 0;
    for (const ChartSpec &spec : kCharts) {
        auto *chart = new Sparkline(tr(spec.title), this);
        const double scale = spec.scale;
        const QString unit = QString::fromLatin1(spec.unit);
        chart->setValueFormat([scale, unit](double v) -> QString {
            const double x = v * scale;
            return QString::number(x, 'f', x < 10 ? 1 : 0) + unit;
        });
        m_charts.append(chart);
        charts->addWidget(chart, i / 2, i % 2);
        ++i;
    }

    // The actions on this engine; enabled once the window has operations (setActionsAvailable).
    struct Action {
        const char *name;
        const char *tip;
        std::optional<EngineAction> action; // none: the log
    };
    const Action actions[] = {
        {QT_TR_NOOP("Start"), QT_TR_NOOP("Start the engine and wait until it serves; it stays outside the proxy"), EngineAction::Start},
        {QT_TR_NOOP("Stop"), QT_TR_NOOP("In the proxy: take it out, drain, then stop. Otherwise stop at once"), EngineAction::Stop},
        {QT_TR_NOOP("Restart"), QT_TR_NOOP("Drain out, stop, start, add back (when in the proxy)"), EngineAction::Restart},
        {QT_TR_NOOP("Restart DP group"), QT_TR_NOOP("A rank of a coupled DP group: every rank of the group out of the proxy, "
                                                    "stopped, started together and added back"), EngineAction::RestartGroup},
        {QT_TR_NOOP("Add to proxy"), QT_TR_NOOP("Start if needed, add to the proxy, verify it receives traffic"), EngineAction::AddToProxy},
        {QT_TR_NOOP("Remove from proxy"), QT_TR_NOOP("Take it out of the proxy and drain; the process keeps running"), EngineAction::RemoveFromProxy},
        {QT_TR_NOOP("Show log"), QT_TR_NOOP("Follow the engine's log with the known error signatures diagnosed"), std::nullopt},
    };
    auto *buttons = new QHBoxLayout;
    for (const Action &a : actions) {
        auto *b = new QPushButton(tr(a.name), this);
        b->setProperty("pdTip", tr(a.tip));
        if (a.action) {
            const EngineAction action = *a.action;
            connect(b, &QPushButton::clicked, this, [this, action] {
                if (m_engine >= 0)
                    Q_EMIT actionRequested(action, m_engine);
            });
        } else {
            b->setProperty("pdLog", true);
            connect(b, &QPushButton::clicked, this, [this] {
                if (m_engine >= 0)
                    Q_EMIT logRequested(m_engine);
            });
        }
        m_actions.append(b);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    setActionsAvailable(false, tr("Acting on engines needs the console's operations (SSH or local runner and the proxy client)."));

    auto *form = new QVBoxLayout(m_body);
    form->setContentsMargins(0, 0, 0, 0);
    form->addWidget(m_title);
    form->addWidget(m_state);
    form->addWidget(m_identity);
    form->addWidget(new QLabel(tr("<b>Launcher arguments</b>"), this));
    form->addWidget(m_launcher);
    form->addWidget(new QLabel(tr("<b>Facts</b>"), this));
    form->addWidget(m_facts);
    form->addWidget(new QLabel(tr("<b>Last 5 minutes</b>"), this));
    form->addLayout(charts);
    form->addWidget(new QLabel(tr("<b>Recent events</b>"), this));
    form->addWidget(m_events);
    form->addLayout(buttons);
    form->addStretch(1);

    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_body);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_placeholder);
    layout->addWidget(m_scroll, 1);
    m_scroll->setVisible(false);

    connect(tracker, &StateTracker::roundDerived, this, [this] {
        if (isVisible())
            refresh();
    });
    connect(tracker, &StateTracker::reset, this, [this] { setEngine(-1); });
}

void EngineDetailPanel::setSeriesStore(SeriesStore *series)
{
    if (m_series)
        disconnect(m_series, nullptr, this, nullptr);
    m_series = series;
    if (m_series) {
        connect(m_series, &SeriesStore::roundIngested, this, [this] {
            if (isVisible() && m_engine >= 0)
                refreshCharts();
        });
    }
    refreshCharts();
}

void EngineDetailPanel::setEngine(int engine)
{
    m_engine = engine >= 0 && engine < m_tracker->engineCount() ? engine : -1;
    const bool has = m_engine >= 0;
    m_placeholder->setVisible(!has);
    m_scroll->setVisible(has);
    if (!has)
        return;
    const Engine &e = m_store->engines().at(m_engine);
    const Profile &profile = m_store->profile();
    const Node &node = profile.nodes.at(e.nodeIndex);
    const EngineGroup &group = node.engineGroups.at(e.groupIndex);
    m_title->setText(QStringLiteral("%1 · %2").arg(node.name, e.id()));
    m_identity->setText(
        tr("<table cellspacing='2'>"
           "<tr><td>Node</td><td><b>%1</b> (%2, %3)</td></tr>"
           "<tr><td>Role</td><td>%4</td></tr>"
           "<tr><td>DP rank</td><td>%5 (local %6 of %7; group of %8, master %9:%10)</td></tr>"
           "<tr><td>Port</td><td>%11</td></tr>"
           "<tr><td>TP size</td><td>%12</td></tr></table>")
            .arg(esc(node.name), esc(node.address), esc(generationName(node.npuGeneration)), roleName(e.role))
            .arg(e.dpRank)
            .arg(e.localRank)
            .arg(group.dpSizeLocal)
            .arg(group.dpSize)
            .arg(esc(group.dpAddress))
            .arg(group.dpPort)
            .arg(e.port)
            .arg(group.tpSize));
    m_launcher->setPlainText(profile.launcherArguments(e).join(QLatin1Char(' ')));
    refresh();
}

void EngineDetailPanel::refresh()
{
    if (m_engine < 0 || m_engine >= m_tracker->engineCount())
        return;
    refreshFacts();
    refreshCharts();
    refreshEvents();
}

QString EngineDetailPanel::stateText() const
{
    return m_state->text();
}

QString EngineDetailPanel::factsText() const
{
    return m_facts->text();
}

void EngineDetailPanel::refreshFacts()
{
    const std::int64_t now = m_tracker->nowMs();
    const DerivedState &d = m_tracker->derived(m_engine);
    const EngineFacts &f = m_tracker->facts(m_engine);
    m_state->setText(
        tr("%1 for %2 — %3", "state, how long, why")
            .arg(QStringLiteral("%1&nbsp;<span style='color:%2; font-size:large'><b>%3</b></span>")
                     .arg(stateGlyphHtml(d.state, m_state->fontMetrics().height(), stateMark(d.state, isDark(palette()))),
                         stateMark(d.state, isDark(palette())).name(), esc(engineStateLabel(d.state))),
                formatAge(now - m_tracker->stateSinceMs(m_engine)), esc(d.reason)));
    auto row = [](const QString &name, const QString &value, const QString &age) {
        return QStringLiteral("<tr><td>%1</td><td><b>%2</b></td><td style='color:gray'>%3</td></tr>")
            .arg(name, value, age);
    };
    QString html = QStringLiteral("<table cellspacing='3'>");
    html += row(tr("Process (SSH)"),
        f.process == ProcessFact::Unknown
            ? tr("unknown — no SSH connection yet")
            : esc(processFactName(f.process)
                + (f.processDetail.isEmpty() ? QString() : QStringLiteral(", ") + f.processDetail)),
        f.process == ProcessFact::Unknown ? QString() : ageOf(f.processAtMs, now));
    QString http = httpFactName(f.http);
    if (f.http != HttpFact::Ok && f.http != HttpFact::Unknown)
        http += QStringLiteral(" × %1 — %2").arg(f.consecutiveFailures).arg(esc(f.httpError));
    html += row(tr("HTTP /metrics"), http, ageOf(f.httpAtMs, now));
    html += row(tr("/health"), f.healthStatus ? QString::number(f.healthStatus) : tr("not probed yet"),
        f.healthStatus ? tr("since %1").arg(ageOf(f.healthAtMs, now)) : QString());
    html += row(tr("/v1/models"), f.modelsKnown ? (f.modelsReady ? tr("ready") : tr("not ready")) : tr("not probed"),
        f.modelsKnown ? ageOf(f.modelsAtMs, now) : QString());
    html += row(tr("Proxy membership"),
        esc(membershipFactName(f.membership)
            + (f.membershipDetail.isEmpty() ? QString() : QStringLiteral(" — ") + f.membershipDetail)),
        ageOf(f.membershipAtMs, now));
    html += row(tr("Metrics"), freshnessFactName(freshnessOf(f, m_tracker->thresholds())),
        tr("last good %1").arg(ageOf(f.lastOkMs, now)));
    if (!f.lastError.isEmpty())
        html += row(tr("Last error"), esc(f.lastError), ageOf(f.lastErrorAtMs, now));
    html += row(tr("Progress"),
        f.hasCounters ? tr("%1 running, %2 waiting; %3")
                            .arg(f.running)
                            .arg(f.waiting)
                            .arg(f.frozenPolls > 0 ? tr("counters frozen for %1 polls (stall at %2)")
                                                         .arg(f.frozenPolls)
                                                         .arg(m_tracker->thresholds().stallPolls)
                                                   : tr("counters moving"))
                      : tr("no scrape yet"),
        f.hasCounters ? tr("moved %1").arg(ageOf(f.lastProgressMs, now)) : QString());
    html += QStringLiteral("</table>");
    m_facts->setText(html);
}

void EngineDetailPanel::refreshCharts()
{
    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = to - kChartWindowMs;
    for (int i = 0; i < m_charts.size(); ++i) {
        if (!m_series || m_engine < 0 || m_engine >= m_series->engineCount()) {
            m_charts[i]->setData({}, from, to);
            continue;
        }
        const SeriesView view = m_series->seriesView(
            SeriesId::forEngine(m_engine, kCharts[i].metric), from, to, std::max(60, m_charts[i]->width() * 2));
        m_charts[i]->setData(view.points, from, to);
    }
}

void EngineDetailPanel::refreshEvents()
{
    const QList<StateEvent> recent = m_tracker->events().recent(m_engine, -1, 20);
    m_events->clear();
    for (const StateEvent &e : recent) {
        auto *item = new QListWidgetItem(
            QStringLiteral("%1  %2  %3")
                .arg(QDateTime::fromMSecsSinceEpoch(e.atMs).toLocalTime().toString(QStringLiteral("HH:mm:ss")), e.what,
                    e.reason),
            m_events);
        if (e.kind == StateEvent::Kind::State)
            item->setForeground(stateMark(e.to, isDark(palette())));
        item->setToolTip(e.evidence.join(QLatin1Char('\n')));
    }
    if (recent.isEmpty())
        m_events->addItem(tr("No events yet."));
}

} // namespace pd
