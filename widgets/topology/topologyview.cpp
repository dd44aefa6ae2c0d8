// SPDX-License-Identifier: MIT
#include "topology/topologyview.h"

#include "topology/engineinfoprovider.h"
#include "topology/statestyle.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

const QColor kBackground(0xf4, 0xf5, 0xf7);
const QColor kPrefillTint(0xe8, 0xf0, 0xfa);
const QColor kDecodeTint(0xf1, 0xec, 0xf8);
const QColor kNodeBorder(0xb8, 0xbe, 0xc7);
const QColor kText(0x1f, 0x23, 0x28);
const QColor kMutedText(0x5f, 0x66, 0x70);
const QColor kSelection(0x11, 0x3c, 0x8c);
const QColor kBadRed(0xb3, 0x26, 0x1e);
const QColor kGood(0x1e, 0x7e, 0x34);
constexpr double kMaxZoom = 6.0;
constexpr int kDragThreshold = 4;
constexpr int kLegendSwatch = 16;

QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QFont pixelFont(const QFont &base, double pixels, bool bold = false)
{
    QFont font = base;
    font.setPixelSize(std::max(1, int(std::lround(pixels))));
    font.setBold(bold);
    return font;
}

void drawArrow(QPainter &p, const QLineF &line, const QColor &color, double width)
{
    p.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
    const QLineF unit = line.unitVector();
    const QPointF dir = unit.p2() - unit.p1();
    const QPointF normal(-dir.y(), dir.x());
    const double head = std::max(6.0, width * 4);
    const QPointF tip = line.p2();
    p.drawLine(line.p1(), tip - dir * head * 0.8);
    QPainterPath path;
    path.moveTo(tip);
    path.lineTo(tip - dir * head + normal * head * 0.5);
    path.lineTo(tip - dir * head - normal * head * 0.5);
    path.closeSubpath();
    p.fillPath(path, color);
}

QString metricLabel(TopologyView::ColorBy colorBy)
{
    switch (colorBy) {
    case TopologyView::ColorBy::KvUsage: return TopologyView::tr("KV cache");
    case TopologyView::ColorBy::Running: return TopologyView::tr("running requests");
    case TopologyView::ColorBy::GenerationRate: return TopologyView::tr("generation tokens/s");
    case TopologyView::ColorBy::State: break;
    }
    return TopologyView::tr("state");
}

} // namespace

TopologyView::TopologyView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("topologyView"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
    rebuildLayout();
}

void TopologyView::setProfile(const Profile &profile)
{
    m_profile = profile;
    m_engines = profile.engines();
    m_searchKeys.clear();
    m_searchKeys.reserve(m_engines.size());
    for (const Engine &engine : std::as_const(m_engines))
        m_searchKeys.append(TopologyFilter::searchKey(profile, engine));
    m_states = QVector<EngineState>(m_engines.size(), EngineState::Unknown);
    m_stateCounts.fill(0);
    m_stateCounts[std::size_t(EngineState::Unknown)] = int(m_engines.size());
    for (int pool = 0; pool < 2; ++pool) {
        m_poolCounts[std::size_t(pool)].fill(0);
        m_poolCounts[std::size_t(pool)][std::size_t(EngineState::Unknown)]
            = int(profile.engines(pool == 0 ? Role::Prefill : Role::Decode).size());
    }
    m_selected.assign(std::size_t(m_engines.size()), 0);
    m_selectedCount = 0;
    m_current = -1;
    m_hover = -1;
    m_values.assign(std::size_t(m_engines.size()), std::numeric_limits<float>::quiet_NaN());
    m_badges.clear();
    m_hasProxy = false;
    m_nodeLabels.clear();
    for (int n = 0; n < profile.nodes.size(); ++n) {
        int lo = -1;
        int hi = -1;
        for (const Engine &e : std::as_const(m_engines)) {
            if (e.nodeIndex == n) {
                lo = lo < 0 ? e.dpRank : lo;
                hi = e.dpRank;
            }
        }
        m_nodeLabels.append(lo < 0 ? profile.nodes.at(n).name
                                   : QStringLiteral("%1 · %2–%3").arg(profile.nodes.at(n).name).arg(lo).arg(hi));
    }
    m_nodeTexts.assign(std::size_t(profile.nodes.size()), QStaticText());
    m_nodeTextPx = -1;
    m_cellTexts.assign(std::size_t(m_engines.size()) * 2, QStaticText());
    m_cellTextPx = -1;
    m_filter.node = -1;
    rebuildLayout();
    recomputeMatches();
    refreshMetrics();
    Q_EMIT selectionChanged({});
}

void TopologyView::setLayoutMode(TopologyMode mode)
{
    if (m_options.mode == mode)
        return;
    m_options.mode = mode;
    rebuildLayout();
}

void TopologyView::rebuildLayout()
{
    m_layout = TopologyLayout::build(m_profile, m_options);
    m_autoFit = true;
    layoutLegend();
    fitToView();
}

void TopologyView::setStates(const QVector<EngineState> &states)
{
    m_stateCounts.fill(0);
    for (auto &pool : m_poolCounts)
        pool.fill(0);
    for (int e = 0; e < m_states.size(); ++e) {
        m_states[e] = states.value(e, EngineState::Unknown);
        ++m_stateCounts[std::size_t(m_states[e])];
        ++m_poolCounts[m_engines.at(e).role == Role::Prefill ? 0 : 1][std::size_t(m_states[e])];
    }
    recomputeMatches();
    update();
}

void TopologyView::setState(int engine, EngineState state)
{
    if (engine < 0 || engine >= m_states.size() || m_states[engine] == state)
        return;
    const EngineState old = m_states[engine];
    auto &pool = m_poolCounts[m_engines.at(engine).role == Role::Prefill ? 0 : 1];
    --m_stateCounts[std::size_t(old)];
    --pool[std::size_t(old)];
    ++m_stateCounts[std::size_t(state)];
    ++pool[std::size_t(state)];
    m_states[engine] = state;
    updateMatch(engine);
    m_lastDirty = dirtyRegion(engine) + QRegion(m_legendItems[std::size_t(old)]);
    update(m_lastDirty);
}

void TopologyView::setInfoProvider(const EngineInfoProvider *provider)
{
    m_provider = provider;
    refreshMetrics();
}

void TopologyView::setColorBy(ColorBy colorBy)
{
    if (m_colorBy == colorBy)
        return;
    m_colorBy = colorBy;
    layoutLegend();
    refreshMetrics();
    update();
}

void TopologyView::refreshMetrics()
{
    if (m_colorBy == ColorBy::State)
        return;
    const Metric metric = m_colorBy == ColorBy::KvUsage ? Metric::KvUsage
        : m_colorBy == ColorBy::Running                 ? Metric::Running
                                                        : Metric::GenerationTokensRate;
    double max = 0;
    for (std::size_t e = 0; e < m_values.size(); ++e) {
        const double v = m_provider ? m_provider->metricValue(int(e), metric) : std::nan("");
        m_values[e] = float(v);
        if (!std::isnan(v))
            max = std::max(max, v);
    }
    // KV cache is a fraction with a natural scale; counts and rates scale to the fleet's maximum.
    m_valueMax = m_colorBy == ColorBy::KvUsage ? 1.0 : std::max(1.0, max);
    update();
}

void TopologyView::setProxyHealth(const ProxyHealth &health)
{
    m_proxy = health;
    m_hasProxy = true;
    update(toView(m_layout.proxyRect()).toAlignedRect().adjusted(-2, -2, 2, 2));
}

void TopologyView::setNodeBadges(int node, NodeBadges badges, const QString &detail)
{
    if (node < 0 || node >= int(m_layout.nodes().size()))
        return;
    if (badges)
        m_badges.insert(node, {badges, detail});
    else
        m_badges.remove(node);
    update(toView(m_layout.nodes().at(std::size_t(node)).rect).toAlignedRect().adjusted(-3, -3, 3, 3));
}

void TopologyView::setFilter(const TopologyFilter &filter)
{
    m_filter = filter;
    recomputeMatches();
    update();
}

void TopologyView::recomputeMatches()
{
    m_match.assign(std::size_t(m_engines.size()), 1);
    m_matchCount = int(m_engines.size());
    if (!m_filter.isEmpty()) {
        m_matchCount = 0;
        for (int e = 0; e < m_engines.size(); ++e) {
            m_match[std::size_t(e)] = m_filter.matches(m_engines.at(e), m_states.at(e), m_searchKeys.at(e));
            m_matchCount += m_match[std::size_t(e)];
        }
    }
    Q_EMIT filterMatchesChanged(m_matchCount);
}

void TopologyView::updateMatch(int engine)
{
    if (m_filter.isEmpty())
        return;
    const char match = m_filter.matches(m_engines.at(engine), m_states.at(engine), m_searchKeys.at(engine));
    if (match == m_match[std::size_t(engine)])
        return;
    m_match[std::size_t(engine)] = match;
    m_matchCount += match ? 1 : -1;
    Q_EMIT filterMatchesChanged(m_matchCount);
}

// --- selection -------------------------------------------------------------------------------------

QList<int> TopologyView::selectedEngines() const
{
    QList<int> result;
    result.reserve(m_selectedCount);
    for (std::size_t e = 0; e < m_selected.size(); ++e) {
        if (m_selected[e])
            result.append(int(e));
    }
    return result;
}

void TopologyView::setSelectedEngines(const QList<int> &engines)
{
    std::fill(m_selected.begin(), m_selected.end(), 0);
    m_selectedCount = 0;
    for (int e : engines) {
        if (e >= 0 && e < int(m_selected.size()) && !m_selected[std::size_t(e)]) {
            m_selected[std::size_t(e)] = 1;
            ++m_selectedCount;
        }
    }
    update();
    emitSelection();
}

void TopologyView::emitSelection()
{
    Q_EMIT selectionChanged(selectedEngines());
}

void TopologyView::selectOnly(int engine)
{
    std::fill(m_selected.begin(), m_selected.end(), 0);
    m_selectedCount = 0;
    if (engine >= 0) {
        m_selected[std::size_t(engine)] = 1;
        m_selectedCount = 1;
    }
    update();
    emitSelection();
}

void TopologyView::applySelection(const std::vector<int> &engines, bool add)
{
    if (!add) {
        std::fill(m_selected.begin(), m_selected.end(), 0);
        m_selectedCount = 0;
    }
    for (int e : engines) {
        // A band over a filtered view takes what the filter shows, not the dimmed engines.
        if (!m_selected[std::size_t(e)] && m_match[std::size_t(e)]) {
            m_selected[std::size_t(e)] = 1;
            ++m_selectedCount;
        }
    }
    update();
    emitSelection();
}

void TopologyView::setCurrentEngine(int engine)
{
    if (engine < -1 || engine >= m_engines.size() || engine == m_current)
        return;
    const int previous = m_current;
    m_current = engine;
    updateEngine(previous);
    updateEngine(engine);
    ensureVisible(engine);
    Q_EMIT currentChanged(engine);
}

void TopologyView::moveCurrent(NavigationDirection direction, bool extend)
{
    int next = m_current < 0 ? (m_engines.isEmpty() ? -1 : 0) : m_layout.neighbour(m_current, direction);
    if (next < 0)
        return;
    setCurrentEngine(next);
    if (extend) {
        if (!m_selected[std::size_t(next)]) {
            m_selected[std::size_t(next)] = 1;
            ++m_selectedCount;
            updateEngine(next);
            emitSelection();
        }
    } else {
        selectOnly(next);
    }
}

// --- zoom and pan ----------------------------------------------------------------------------------

void TopologyView::layoutLegend()
{
    const QFontMetrics fm(font());
    const int rowHeight = std::max(kLegendSwatch, fm.height()) + 6;
    const int available = std::max(200, width() - 36);
    // Entries at (x, row) first, then placed from the bottom once the row count is known.
    std::array<QPoint, 10> at;
    std::array<int, 10> widths;
    int x = 0;
    int row = m_colorBy != ColorBy::State ? 1 : 0;
    for (int s = 0; s < StateStyle::kStateCount; ++s) {
        const int w = kLegendSwatch + 6 + fm.horizontalAdvance(StateStyle::label(EngineState(s)) + QStringLiteral(" 00000")) + 14;
        if (x + w > available && x > 0) {
            ++row;
            x = 0;
        }
        at[std::size_t(s)] = QPoint(x, row);
        widths[std::size_t(s)] = w;
        x += w;
    }
    const int height = (row + 1) * rowHeight + 8;
    m_legendRect = QRect(8, this->height() - height - 6, width() - 16, height);
    for (int s = 0; s < StateStyle::kStateCount; ++s)
        m_legendItems[std::size_t(s)] = QRect(m_legendRect.left() + 10 + at[std::size_t(s)].x(),
                                              m_legendRect.top() + 4 + at[std::size_t(s)].y() * rowHeight,
                                              widths[std::size_t(s)], rowHeight);
}

void TopologyView::fitToView()
{
    const QRectF bounds = m_layout.bounds();
    const QRectF area(0, 0, width(), std::max(50, m_legendRect.top() - 4));
    if (bounds.isEmpty())
        return;
    m_scale = std::min({area.width() / bounds.width(), area.height() / bounds.height(), 1.5});
    m_offset = area.center() - bounds.center() * m_scale;
    m_autoFit = true;
    update();
}

void TopologyView::setZoom(double scale, QPointF anchor)
{
    const QRectF bounds = m_layout.bounds();
    const double fit = bounds.isEmpty() ? 1.0 : std::min(width() / bounds.width(), height() / bounds.height());
    scale = std::clamp(scale, std::min(0.5 * fit, 1.0), std::max(kMaxZoom, fit));
    const QPointF scene = mapToScene(anchor);
    m_scale = scale;
    m_offset = anchor - scene * m_scale;
    m_autoFit = false;
    update();
}

void TopologyView::zoomIn()
{
    setZoom(m_scale * 1.25, rect().center());
}

void TopologyView::zoomOut()
{
    setZoom(m_scale / 1.25, rect().center());
}

void TopologyView::ensureVisible(int engine)
{
    if (engine < 0)
        return;
    const QRectF r = toView(m_layout.engineRect(engine));
    const QRectF area = QRectF(rect()).adjusted(8, 8, -8, -(height() - m_legendRect.top()) - 8);
    QPointF shift;
    if (r.left() < area.left())
        shift.setX(area.left() - r.left());
    else if (r.right() > area.right())
        shift.setX(area.right() - r.right());
    if (r.top() < area.top())
        shift.setY(area.top() - r.top());
    else if (r.bottom() > area.bottom())
        shift.setY(area.bottom() - r.bottom());
    if (!shift.isNull()) {
        m_offset += shift;
        m_autoFit = false;
        update();
    }
}

void TopologyView::resizeEvent(QResizeEvent *)
{
    layoutLegend();
    if (m_autoFit)
        fitToView();
}

QRectF TopologyView::toView(const QRectF &scene) const
{
    return QRectF(scene.topLeft() * m_scale + m_offset, scene.size() * m_scale);
}

QRect TopologyView::engineViewRect(int engine) const
{
    return toView(m_layout.engineRect(engine)).toAlignedRect();
}

QRegion TopologyView::dirtyRegion(int engine) const
{
    // The cell with its selection ring, its pool's title (counts) and its state's legend entry (count).
    const Role role = m_engines.at(engine).role;
    const QRect title = toView(m_layout.pools().at(role == Role::Prefill ? 0 : 1).titleRect).toAlignedRect();
    return QRegion(engineViewRect(engine).adjusted(-3, -3, 3, 3)) + QRegion(title)
        + QRegion(m_legendItems[std::size_t(m_states.at(engine))]);
}

void TopologyView::updateEngine(int engine)
{
    if (engine >= 0 && engine < m_engines.size())
        update(engineViewRect(engine).adjusted(-3, -3, 3, 3));
}

// --- painting --------------------------------------------------------------------------------------

QColor TopologyView::cellColor(int engine) const
{
    if (m_colorBy == ColorBy::State)
        return StateStyle::fill(m_states[engine]);
    const float v = m_values[std::size_t(engine)];
    if (std::isnan(v))
        return QColor(0xd8, 0xdb, 0xdf);
    return metricColor(double(v) / m_valueMax);
}

void TopologyView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    for (const QRect &clip : event->region()) {
        p.save();
        p.setClipRect(clip);
        p.fillRect(clip, kBackground);
        const QRectF sceneClip = QRectF(mapToScene(clip.topLeft()), mapToScene(clip.bottomRight() + QPoint(1, 1)));
        paintPools(p, sceneClip);
        if (sceneClip.intersects(m_layout.proxyRect().adjusted(-4, -4, 4, 4)))
            paintProxy(p);
        paintArrows(p);
        paintNodes(p, sceneClip);
        paintCells(p, sceneClip);
        if (m_drag == Drag::Band && clip.intersects(m_band.adjusted(-1, -1, 1, 1))) {
            p.setPen(QPen(kSelection, 1, Qt::DashLine));
            p.setBrush(QColor(0x11, 0x3c, 0x8c, 40));
            p.drawRect(m_band);
        }
        if (clip.intersects(m_legendRect))
            paintLegend(p);
        p.restore();
    }
    if (hasFocus() && m_current < 0) {
        p.setPen(QPen(kSelection, 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

void TopologyView::paintPools(QPainter &p, const QRectF &sceneClip)
{
    for (const PoolGroup &pool : m_layout.pools()) {
        if (!pool.rect.intersects(sceneClip))
            continue;
        const QRectF r = toView(pool.rect);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(pool.role == Role::Prefill ? QColor(0x9d, 0xb7, 0xdc) : QColor(0xb9, 0xa7, 0xd9), 1));
        p.setBrush(pool.role == Role::Prefill ? kPrefillTint : kDecodeTint);
        p.drawRoundedRect(r, 8, 8);
        p.setRenderHint(QPainter::Antialiasing, false);
        if (!pool.titleRect.intersects(sceneClip))
            continue;
        const auto &counts = m_poolCounts[pool.role == Role::Prefill ? 0 : 1];
        int engines = 0;
        for (int count : counts)
            engines += count;
        const int serving = counts[std::size_t(EngineState::Serving)];
        const int problems = counts[std::size_t(EngineState::Stalled)] + counts[std::size_t(EngineState::Unhealthy)]
            + counts[std::size_t(EngineState::Unreachable)];
        QString title = (pool.role == Role::Prefill ? tr("Prefill") : tr("Decode"))
            + tr(" · %n node(s)", nullptr, int(pool.nodes.size())) + tr(" · %n engine(s)", nullptr, engines);
        if (problems)
            title += tr(" · %n problem(s)", nullptr, problems);
        title += tr(" · %1 serving").arg(serving);
        const double px = std::clamp(15 * m_scale, 9.0, 18.0);
        p.setFont(pixelFont(font(), px, true));
        p.setPen(problems ? kBadRed : kText);
        const QRectF t = toView(pool.titleRect);
        p.drawText(t.adjusted(0, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   QFontMetrics(p.font()).elidedText(title, Qt::ElideRight, int(std::max(40.0, t.width()))));
        // Heatmap: DP rank offsets above the columns.
        const double pitch = m_layout.mode() == TopologyMode::Heatmap && pool.columns > 0
            ? (pool.headerRects.isEmpty() ? 0 : pool.headerRects.first().width() / pool.columns * m_scale)
            : 0;
        if (pitch > 0 && 4 * pitch >= 18) {
            p.setFont(pixelFont(font(), std::clamp(pitch * 0.75, 7.0, 11.0)));
            p.setPen(kMutedText);
            const int step = pitch >= 20 ? 1 : pitch >= 9 ? 4 : 8;
            for (const QRectF &header : pool.headerRects) {
                const QRectF h = toView(header);
                for (int c = 0; c < pool.columns; c += step)
                    p.drawText(QRectF(h.left() + c * pitch, h.top(), 3 * pitch, h.height()), Qt::AlignLeft | Qt::AlignBottom,
                               QStringLiteral("+%1").arg(c));
            }
        }
    }
}

void TopologyView::paintProxy(QPainter &p)
{
    const QRectF r = toView(m_layout.proxyRect());
    const bool known = m_hasProxy;
    const bool up = known && m_proxy.reachable;
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(!known ? kNodeBorder : up ? kGood : kBadRed, up || !known ? 1.5 : 3));
    p.setBrush(Qt::white);
    p.drawRoundedRect(r, 8, 8);
    p.setRenderHint(QPainter::Antialiasing, false);
    const double px = std::clamp(14 * m_scale, 8.0, 18.0);
    const QRectF inner = r.adjusted(12 * m_scale, 6 * m_scale, -12 * m_scale, -6 * m_scale);
    p.setFont(pixelFont(font(), px, true));
    p.setPen(kText);
    const QString where = QStringLiteral("%1:%2").arg(m_profile.proxy.address).arg(m_profile.proxy.port);
    p.drawText(inner, Qt::AlignTop | Qt::AlignHCenter, tr("Proxy %1").arg(where));
    QString line;
    QColor color = kMutedText;
    if (!known) {
        line = tr("not polled yet");
    } else if (up) {
        line = tr("in proxy: %1 prefill · %2 decode").arg(m_proxy.prefillInstances).arg(m_proxy.decodeInstances);
        if (m_proxy.requestNum)
            line += tr(" · %n request(s) in flight", nullptr, *m_proxy.requestNum);
        color = kText;
    } else {
        line = tr("✖ unreachable: %1").arg(m_proxy.error);
        color = kBadRed;
    }
    const int profilePrefill = int(m_profile.proxyInstances(Role::Prefill).size());
    const int profileDecode = int(m_profile.proxyInstances(Role::Decode).size());
    p.setFont(pixelFont(font(), px * 0.85));
    const QFontMetrics fm(p.font());
    p.setPen(color);
    p.drawText(inner, Qt::AlignVCenter | Qt::AlignHCenter, fm.elidedText(line, Qt::ElideRight, int(inner.width())));
    p.setPen(kMutedText);
    p.drawText(inner, Qt::AlignBottom | Qt::AlignHCenter,
               tr("profile: %1 prefill · %2 decode instances").arg(profilePrefill).arg(profileDecode));
}

void TopologyView::paintArrows(QPainter &p)
{
    p.setRenderHint(QPainter::Antialiasing);
    for (const TopologyArrow &arrow : m_layout.arrows()) {
        const QLineF line(mapToView(arrow.line.p1()), mapToView(arrow.line.p2()));
        if (arrow.kind == ArrowKind::Requests) {
            drawArrow(p, line, QColor(0x8a, 0x91, 0x9c), std::max(1.0, 2 * m_scale));
            continue;
        }
        drawArrow(p, line, QColor(0x1f, 0x5f, 0xa8), std::max(1.5, 4 * m_scale));
        const double px = std::clamp(12 * m_scale, 8.0, 14.0);
        p.setFont(pixelFont(font(), px, true));
        p.setPen(QColor(0x1f, 0x5f, 0xa8));
        const QRectF label(line.p1().x(), line.p1().y() - 3.2 * px, line.length(), 3 * px);
        QString connector;
        const auto &kv = m_profile.prefill.kvTransferConfig;
        if (kv.contains("kv_connector") && kv["kv_connector"].is_string())
            connector = QString::fromStdString(kv["kv_connector"].get<std::string>());
        p.drawText(label, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap,
                   connector.isEmpty() ? tr("KV cache P → D") : tr("KV cache P → D\n%1").arg(connector));
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TopologyView::paintNodes(QPainter &p, const QRectF &sceneClip)
{
    const bool heat = m_layout.mode() == TopologyMode::Heatmap;
    const std::vector<int> nodes = m_layout.nodesIn(sceneClip);
    const double titlePx = heat ? std::min(11.0, 10 * m_scale) : std::clamp(13 * m_scale, 1.0, 20.0);
    const QFont bold = pixelFont(font(), titlePx, true);
    const QFont plain = pixelFont(font(), titlePx * 0.85);
    for (int n : nodes) {
        const NodeBox &box = m_layout.nodes().at(std::size_t(n));
        const Node &node = m_profile.nodes.at(n);
        const NodeBadges badges = m_badges.value(n).badges;
        const QRectF r = toView(box.rect);
        if (!heat) {
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(QPen(badges ? kBadRed : kNodeBorder, badges ? 2 : 1));
            p.setBrush(m_filter.node == n ? QColor(0xff, 0xfb, 0xe6) : QColor(Qt::white));
            p.drawRoundedRect(r, 5, 5);
            p.setRenderHint(QPainter::Antialiasing, false);
        }
        if (badges)
            paintBadges(p, box, badges);
        if (titlePx < 6.5)
            continue;
        const QRectF t = toView(box.titleRect);
        int lo = 0;
        int hi = -1;
        if (box.cellCount > 0) {
            lo = m_engines.at(box.firstCell).dpRank;
            hi = m_engines.at(box.firstCell + box.cellCount - 1).dpRank;
        }
        if (heat) {
            if (m_nodeTextPx != titlePx) {
                std::fill(m_nodeTexts.begin(), m_nodeTexts.end(), QStaticText());
                m_nodeTextPx = titlePx;
            }
            QStaticText &text = m_nodeTexts[std::size_t(n)];
            if (text.text().isEmpty()) {
                text.setText(QFontMetrics(plain).elidedText(m_nodeLabels.at(n), Qt::ElideMiddle, int(t.width())));
                text.setTextFormat(Qt::PlainText);
                text.prepare(QTransform(), plain);
            }
            p.setFont(plain);
            p.setPen(kText);
            p.drawStaticText(QPointF(t.left(), t.center().y() - text.size().height() / 2), text);
            continue;
        }
        const QRectF badgeArea = toView(box.badgeRect);
        const double nameWidth = badges ? badgeArea.left() - t.left() - 4 : t.width();
        p.setFont(bold);
        p.setPen(kText);
        const QFontMetrics fmBold(bold);
        const QString name = fmBold.elidedText(node.name, Qt::ElideRight, int(nameWidth));
        p.drawText(t, Qt::AlignTop | Qt::AlignLeft, name);
        p.setFont(plain);
        p.setPen(kMutedText);
        const double after = fmBold.horizontalAdvance(name) + titlePx * 0.6;
        if (nameWidth - after > 30)
            p.drawText(t.adjusted(after, titlePx * 0.1, 0, 0), Qt::AlignTop | Qt::AlignLeft,
                       QFontMetrics(plain).elidedText(node.address, Qt::ElideRight, int(nameWidth - after)));
        const int tp = node.engineGroups.isEmpty() ? 0 : node.engineGroups.first().tpSize;
        const QString detail = box.cellCount
            ? tr("DP %1–%2 · TP %3 · %n engine(s)", nullptr, box.cellCount).arg(lo).arg(hi).arg(tp)
            : tr("no engines");
        p.drawText(t, Qt::AlignBottom | Qt::AlignLeft, QFontMetrics(plain).elidedText(detail, Qt::ElideRight, int(t.width())));
    }
}

void TopologyView::paintBadges(QPainter &p, const NodeBox &box, NodeBadges badges)
{
    const QRectF area = toView(box.badgeRect);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_layout.mode() == TopologyMode::Heatmap || area.height() < 12) {
        // One marker: the tooltip lists what is wrong.
        const double s = std::min(area.width(), area.height());
        const QRectF mark(area.left(), area.center().y() - s / 2, s, s);
        p.setPen(Qt::NoPen);
        p.setBrush(kBadRed);
        p.drawRoundedRect(mark, 2, 2);
        if (s >= 8) {
            p.setPen(Qt::white);
            p.setFont(pixelFont(font(), s * 0.8, true));
            p.drawText(mark, Qt::AlignCenter, QStringLiteral("!"));
        }
        p.setRenderHint(QPainter::Antialiasing, false);
        return;
    }
    const struct {
        NodeBadge badge;
        QString text;
    } all[] = {{NodeBadge::SshDown, tr("SSH")}, {NodeBadge::NpuUnhealthy, tr("NPU")}, {NodeBadge::NetworkCheckFailed, tr("NET")}};
    p.setFont(pixelFont(font(), area.height() * 0.62, true));
    const double w = area.width() / 3;
    double x = area.right();
    for (int i = 2; i >= 0; --i) {
        if (!badges.testFlag(all[i].badge))
            continue;
        const QRectF pill(x - w + 2, area.top(), w - 2, area.height());
        p.setPen(Qt::NoPen);
        p.setBrush(kBadRed);
        p.drawRoundedRect(pill, area.height() / 2, area.height() / 2);
        p.setPen(Qt::white);
        p.drawText(pill, Qt::AlignCenter, QStringLiteral("✖") + all[i].text);
        x -= w;
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TopologyView::paintCells(QPainter &p, const QRectF &sceneClip)
{
    const std::vector<int> visible = m_layout.enginesIn(sceneClip);
    if (visible.empty())
        return;
    const bool heat = m_layout.mode() == TopologyMode::Heatmap;
    const QRectF first = toView(m_layout.engineRect(visible.front()));
    const double cellW = first.width();
    const double cellH = first.height();
    // Whole device pixels: integer fills take the rasterizer's fast path. At tiny zoom a cell is at
    // least one pixel.
    const auto pixels = [&](int engine) {
        const QRectF r = toView(m_layout.engineRect(engine));
        const int left = int(std::lround(r.left()));
        const int top = int(std::lround(r.top()));
        return QRect(left, top, std::max(1, int(std::lround(r.right())) - left), std::max(1, int(std::lround(r.bottom())) - top));
    };

    // 1. Fills (the only pass at tiny zoom).
    for (int e : visible) {
        const QRect r = pixels(e);
        QColor c = cellColor(e);
        const bool dim = !m_match[std::size_t(e)];
        if (dim)
            c = blend(c, kBackground, 0.8);
        p.fillRect(r, c);
        if (m_colorBy != ColorBy::State && std::isnan(m_values[std::size_t(e)]) && !dim)
            p.fillRect(r, QBrush(QColor(0x9a, 0xa0, 0xa8), Qt::BDiagPattern));
    }
    // 2. Problem borders, glyphs and labels: the cues besides colour.
    const int glyphSize = int(std::min(cellW, cellH) * (heat ? 0.72 : 0.42));
    const bool labels = !heat && cellW >= 46 && cellH >= 26;
    const double labelPx = std::clamp(std::round(cellH * 0.3), 7.0, 16.0);
    const QColor dark(0x1b, 0x1f, 0x24);
    QFont labelFont = pixelFont(font(), labelPx);
    QFont labelBold = pixelFont(font(), labelPx, true);
    if (labels && m_cellTextPx != labelPx) {
        std::fill(m_cellTexts.begin(), m_cellTexts.end(), QStaticText());
        m_cellTextPx = labelPx;
    }
    for (int e : visible) {
        if (!m_match[std::size_t(e)])
            continue;
        const EngineState state = m_states[e];
        const QRect r = pixels(e);
        const bool problem = StateStyle::isProblem(state);
        const QColor fill = cellColor(e);
        if (problem && r.width() >= 6) {
            const int w = r.width() >= 20 ? 2 : 1;
            p.fillRect(QRect(r.left(), r.top(), r.width(), w), dark);
            p.fillRect(QRect(r.left(), r.bottom() - w + 1, r.width(), w), dark);
            p.fillRect(QRect(r.left(), r.top(), w, r.height()), dark);
            p.fillRect(QRect(r.right() - w + 1, r.top(), w, r.height()), dark);
        }
        if (glyphSize < 7 && !labels)
            continue;
        const QColor ink = StateStyle::ink(fill);
        if (glyphSize >= 7 && state != EngineState::Serving) {
            const QPoint at = heat || !labels ? r.center() - QPoint(glyphSize / 2 - 1, glyphSize / 2 - 1)
                                              : QPoint(r.right() - glyphSize - 3, r.top() + 4);
            p.drawPixmap(at, StateStyle::glyph(state, glyphSize, ink));
        }
        if (labels) {
            QStaticText &rank = m_cellTexts[std::size_t(e) * 2];
            QStaticText &port = m_cellTexts[std::size_t(e) * 2 + 1];
            if (rank.text().isEmpty()) {
                rank.setTextFormat(Qt::PlainText);
                rank.setText(tr("DP %1").arg(m_engines.at(e).dpRank));
                rank.prepare(QTransform(), labelBold);
                port.setTextFormat(Qt::PlainText);
                port.setText(QStringLiteral(":%1").arg(m_engines.at(e).port));
                port.prepare(QTransform(), labelFont);
            }
            p.setPen(ink);
            p.setFont(labelBold);
            p.drawStaticText(QPointF(r.left() + 5, r.top() + 3), rank);
            p.setFont(labelFont);
            p.drawStaticText(QPointF(r.left() + 5, r.bottom() - 2 - port.size().height()), port);
        }
    }
    // 3. Selection, current and hover rings.
    for (int e : visible) {
        const bool selected = m_selected[std::size_t(e)];
        if (!selected && e != m_current && e != m_hover)
            continue;
        const QRectF r = pixels(e);
        p.setBrush(Qt::NoBrush);
        if (selected) {
            p.setPen(QPen(kSelection, 2.5));
            p.drawRect(r.adjusted(-1.5, -1.5, 1.5, 1.5));
            p.setPen(QPen(Qt::white, 1));
            p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (e == m_current && hasFocus()) {
            p.setPen(QPen(QColor(0xff, 0xc1, 0x07), 1.5, Qt::DashLine));
            p.drawRect(r.adjusted(-2.5, -2.5, 2.5, 2.5));
        } else if (e == m_hover && !selected) {
            p.setPen(QPen(kText, 1));
            p.drawRect(r.adjusted(-1, -1, 1, 1));
        }
    }
}

void TopologyView::paintLegend(QPainter &p)
{
    const QRect r = m_legendRect;
    p.setPen(QPen(kNodeBorder, 1));
    p.setBrush(Qt::white);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setFont(font());
    const QFontMetrics fm(font());
    const int rowHeight = std::max(kLegendSwatch, fm.height()) + 6;
    int x = r.left() + 10;
    int y = r.top() + 4;
    if (m_colorBy != ColorBy::State) {
        const QString title = tr("Colour: %1").arg(metricLabel(m_colorBy));
        p.setPen(kText);
        p.drawText(QRect(x, y, fm.horizontalAdvance(title) + 8, rowHeight), Qt::AlignVCenter, title);
        x += fm.horizontalAdvance(title) + 14;
        const QString low = m_colorBy == ColorBy::KvUsage ? QStringLiteral("0 %") : QStringLiteral("0");
        const QString high = m_colorBy == ColorBy::KvUsage ? QStringLiteral("100 %") : QString::number(m_valueMax, 'f', m_valueMax < 10 ? 1 : 0);
        p.drawText(QRect(x, y, fm.horizontalAdvance(low) + 4, rowHeight), Qt::AlignVCenter, low);
        x += fm.horizontalAdvance(low) + 6;
        for (int i = 0; i < 160; ++i)
            p.fillRect(QRect(x + i, y + 4, 1, rowHeight - 8), metricColor(i / 159.0));
        x += 166;
        p.drawText(QRect(x, y, fm.horizontalAdvance(high) + 4, rowHeight), Qt::AlignVCenter, high);
        x += fm.horizontalAdvance(high) + 16;
        const QRect none(x, y + (rowHeight - kLegendSwatch) / 2, kLegendSwatch, kLegendSwatch);
        p.fillRect(none, QColor(0xd8, 0xdb, 0xdf));
        p.fillRect(none, QBrush(QColor(0x9a, 0xa0, 0xa8), Qt::BDiagPattern));
        p.drawText(QRect(x + kLegendSwatch + 6, y, 200, rowHeight), Qt::AlignVCenter, tr("no data · marks show the state"));
    }
    for (int s = 0; s < StateStyle::kStateCount; ++s) {
        const EngineState state = EngineState(s);
        const QRect item = m_legendItems[std::size_t(s)];
        if (!p.clipBoundingRect().intersects(item))
            continue;
        const QString text = QStringLiteral("%1 %2").arg(StateStyle::label(state)).arg(m_stateCounts[std::size_t(s)]);
        const QRect swatch(item.left(), item.top() + (rowHeight - kLegendSwatch) / 2, kLegendSwatch, kLegendSwatch);
        const QColor fill = StateStyle::fill(state);
        p.fillRect(swatch, fill);
        if (StateStyle::isProblem(state)) {
            p.setPen(QPen(QColor(0x1b, 0x1f, 0x24), 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        }
        if (state != EngineState::Serving)
            p.drawPixmap(swatch.topLeft() + QPoint(2, 2), StateStyle::glyph(state, kLegendSwatch - 4, StateStyle::ink(fill)));
        p.setPen(m_stateCounts[std::size_t(s)] && StateStyle::isProblem(state) ? kBadRed : kText);
        p.drawText(item.adjusted(kLegendSwatch + 6, 0, 0, 0), Qt::AlignVCenter, text);
    }
}

// --- interaction -----------------------------------------------------------------------------------

void TopologyView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    setZoom(m_scale * std::pow(1.2, steps), event->position());
    event->accept();
}

void TopologyView::mousePressEvent(QMouseEvent *event)
{
    setFocus(Qt::MouseFocusReason);
    m_pressPos = event->position().toPoint();
    m_pressOffset = m_offset;
    const bool pan = event->button() == Qt::MiddleButton || event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::AltModifier));
    if (pan) {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    m_drag = Drag::Pending;
    m_bandAdds = event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier);
}

void TopologyView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::Pan) {
        m_offset = m_pressOffset + QPointF(pos - m_pressPos);
        m_autoFit = false;
        update();
        return;
    }
    if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() >= kDragThreshold)
        m_drag = Drag::Band;
    if (m_drag == Drag::Band) {
        const QRect old = m_band;
        m_band = QRect(m_pressPos, pos).normalized();
        update(QRegion(old.adjusted(-2, -2, 2, 2)) + QRegion(m_band.adjusted(-2, -2, 2, 2)));
        return;
    }
    const int hover = m_layout.engineAt(mapToScene(event->position()));
    if (hover != m_hover) {
        const int previous = m_hover;
        m_hover = hover;
        updateEngine(previous);
        updateEngine(hover);
    }
}

void TopologyView::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::Band) {
        const QRectF scene(mapToScene(m_band.topLeft()), mapToScene(m_band.bottomRight()));
        update(m_band.adjusted(-2, -2, 2, 2));
        m_band = QRect();
        applySelection(m_layout.enginesIn(scene), m_bandAdds);
        return;
    }
    if (drag != Drag::Pending)
        return;
    const int engine = m_layout.engineAt(mapToScene(event->position()));
    if (event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier)) {
        if (engine < 0)
            return;
        m_selected[std::size_t(engine)] = !m_selected[std::size_t(engine)];
        m_selectedCount += m_selected[std::size_t(engine)] ? 1 : -1;
        updateEngine(engine);
        setCurrentEngine(engine);
        emitSelection();
        return;
    }
    if (engine >= 0)
        setCurrentEngine(engine);
    selectOnly(engine);
}

void TopologyView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int engine = m_layout.engineAt(mapToScene(event->position()));
    if (engine >= 0 && event->button() == Qt::LeftButton)
        Q_EMIT activated(engine);
}

void TopologyView::keyPressEvent(QKeyEvent *event)
{
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
    case Qt::Key_Left: moveCurrent(NavigationDirection::Left, extend); break;
    case Qt::Key_Right: moveCurrent(NavigationDirection::Right, extend); break;
    case Qt::Key_Up: moveCurrent(NavigationDirection::Up, extend); break;
    case Qt::Key_Down: moveCurrent(NavigationDirection::Down, extend); break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_current >= 0)
            Q_EMIT activated(m_current);
        break;
    case Qt::Key_Space:
        if (m_current >= 0) {
            m_selected[std::size_t(m_current)] = !m_selected[std::size_t(m_current)];
            m_selectedCount += m_selected[std::size_t(m_current)] ? 1 : -1;
            updateEngine(m_current);
            emitSelection();
        }
        break;
    case Qt::Key_Escape: selectOnly(-1); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); break;
    case Qt::Key_Minus: zoomOut(); break;
    case Qt::Key_0:
    case Qt::Key_Home: fitToView(); break;
    case Qt::Key_A:
        if (event->modifiers() & Qt::ControlModifier) {
            std::vector<int> all(std::size_t(m_engines.size()));
            for (std::size_t e = 0; e < all.size(); ++e)
                all[e] = int(e);
            applySelection(all, false);
            break;
        }
        QWidget::keyPressEvent(event);
        return;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void TopologyView::leaveEvent(QEvent *)
{
    const int previous = m_hover;
    m_hover = -1;
    updateEngine(previous);
}

bool TopologyView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipFor(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString TopologyView::toolTipFor(QPoint pos) const
{
    const QPointF scene = mapToScene(pos);
    const int engine = m_layout.engineAt(scene);
    if (engine >= 0) {
        const Engine &e = m_engines.at(engine);
        const Node &node = m_profile.nodes.at(e.nodeIndex);
        const EngineGroup &group = node.engineGroups.at(e.groupIndex);
        EngineSummary summary;
        summary.state = m_states.at(engine);
        if (m_provider)
            summary = m_provider->summary(engine);
        const EngineState state = m_states.at(engine); // what the cell shows
        QString tip = QStringLiteral("<b>%1 · %2</b><br>%3 · DP rank %4 / %5 · TP %6")
                          .arg(node.name.toHtmlEscaped(), e.id().toHtmlEscaped(), roleName(e.role))
                          .arg(e.dpRank)
                          .arg(group.dpSize)
                          .arg(group.tpSize);
        tip += QStringLiteral("<br><span style='color:%1'>■</span> <b>%2</b>")
                   .arg(StateStyle::fill(state).name(), StateStyle::label(state).toHtmlEscaped());
        if (summary.since.isValid()) {
            const qint64 secs = summary.since.secsTo(QDateTime::currentDateTimeUtc());
            const QString ago = secs < 120 ? tr("%n s ago", nullptr, int(secs)) : tr("%n min ago", nullptr, int(secs / 60));
            tip += tr(" since %1 (%2)").arg(summary.since.toLocalTime().toString(QStringLiteral("HH:mm:ss")), ago);
        }
        if (!summary.evidence.isEmpty())
            tip += QStringLiteral("<br>") + summary.evidence.toHtmlEscaped();
        if (!summary.lastError.isEmpty())
            tip += tr("<br>last error: <i>%1</i>").arg(summary.lastError.toHtmlEscaped());
        QStringList figures;
        for (const auto &[label, value] : std::as_const(summary.metrics))
            figures.append(QStringLiteral("%1 <b>%2</b>").arg(label.toHtmlEscaped(), value.toHtmlEscaped()));
        if (!figures.isEmpty())
            tip += QStringLiteral("<br>") + figures.join(QStringLiteral(" · "));
        return tip;
    }
    const int n = m_layout.nodeAt(scene);
    if (n >= 0) {
        const Node &node = m_profile.nodes.at(n);
        const NodeBox &box = m_layout.nodes().at(std::size_t(n));
        QString tip = QStringLiteral("<b>%1</b> · %2<br>%3 · %4 · %5 NPUs · %6")
                          .arg(node.name.toHtmlEscaped(), node.address.toHtmlEscaped(), roleName(node.role),
                               generationName(node.npuGeneration))
                          .arg(node.npuCount)
                          .arg(tr("%n engine(s)", nullptr, box.cellCount));
        const BadgeInfo badge = m_badges.value(n);
        if (badge.badges.testFlag(NodeBadge::SshDown))
            tip += tr("<br><b>✖ SSH down</b>");
        if (badge.badges.testFlag(NodeBadge::NpuUnhealthy))
            tip += tr("<br><b>✖ NPU health check failed</b>");
        if (badge.badges.testFlag(NodeBadge::NetworkCheckFailed))
            tip += tr("<br><b>✖ network check failed</b>");
        if (!badge.detail.isEmpty())
            tip += QStringLiteral("<br>") + badge.detail.toHtmlEscaped();
        return tip;
    }
    if (m_layout.proxyRect().contains(scene)) {
        if (!m_hasProxy)
            return tr("The proxy's /healthcheck has not answered yet");
        if (!m_proxy.reachable)
            return tr("Proxy unreachable: %1").arg(m_proxy.error.toHtmlEscaped());
        return tr("/healthcheck at %1: %2 prefill, %3 decode instances (draining included, waiting excluded)")
            .arg(m_proxy.when.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
            .arg(m_proxy.prefillInstances)
            .arg(m_proxy.decodeInstances);
    }
    return {};
}

} // namespace pd
