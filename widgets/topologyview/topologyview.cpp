// SPDX-License-Identifier: MIT
#include "topologyview/topologyview.h"

#include "stateappearance.h"
#include "topology/engineinfoprovider.h"
#include "topologyview/statestyle.h"

#include <QContextMenuEvent>
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

constexpr double kMaxZoom = 6.0;
constexpr int kDragThreshold = 4;

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
    rebuildGroupFrames();
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
    recountGroups();
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
    m_lastDirty
        = dirtyRegion(engine) + QRegion(m_legendItems[std::size_t(old)]) + groupStateChanged(engine, old, state);
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
        m_badges.insert(node, { badges, detail });
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
    std::array<QPoint, kEngineStateCount> at;
    std::array<int, kEngineStateCount> widths;
    int x = 0;
    int row = m_colorBy != ColorBy::State ? 1 : 0;
    for (int s = 0; s < StateStyle::kStateCount; ++s) {
        const int w = kLegendSwatch + 6
            + fm.horizontalAdvance(StateStyle::label(EngineState(s)) + QStringLiteral(" 00000")) + 14;
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
            m_legendRect.top() + 4 + at[std::size_t(s)].y() * rowHeight, widths[std::size_t(s)], rowHeight);
}

void TopologyView::fitToView()
{
    const QRectF bounds = m_layout.bounds();
    const QRectF area(0, 0, width(), std::max(50, m_legendRect.top() - 4));
    if (bounds.isEmpty())
        return;
    m_scale = std::min({ area.width() / bounds.width(), area.height() / bounds.height(), 1.5 });
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
    // Right button: a drag pans, a click asks for the context menu.
    if (drag == Drag::Pan && event->button() == Qt::RightButton
        && (event->position().toPoint() - m_pressPos).manhattanLength() < kDragThreshold) {
        m_offset = m_pressOffset;
        update();
        requestContextMenu(event->position(), event->globalPosition().toPoint());
        return;
    }
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

void TopologyView::contextMenuEvent(QContextMenuEvent *event)
{
    // Mouse right-clicks are handled on release (the right button also pans); this is the menu key.
    if (event->reason() == QContextMenuEvent::Mouse)
        return;
    const QRect cell = engineViewRect(m_current);
    const QPoint at = m_current >= 0 && cell.isValid() ? cell.center() : rect().center();
    requestContextMenu(at, mapToGlobal(at));
}

void TopologyView::requestContextMenu(QPointF viewPos, QPoint globalPos)
{
    const QPointF scene = mapToScene(viewPos);
    const int engine = m_layout.engineAt(scene);
    if (engine >= 0 && !isSelected(engine)) {
        setCurrentEngine(engine);
        selectOnly(engine);
    }
    const int node = engine >= 0 ? -1 : m_layout.nodeAt(scene);
    if (engine < 0 && node < 0 && m_layout.proxyRect().contains(scene)) {
        Q_EMIT proxyContextMenuRequested(globalPos);
        return;
    }
    Q_EMIT contextMenuRequested(engine, node, globalPos);
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
    case Qt::Key_Left:
        moveCurrent(NavigationDirection::Left, extend);
        break;
    case Qt::Key_Right:
        moveCurrent(NavigationDirection::Right, extend);
        break;
    case Qt::Key_Up:
        moveCurrent(NavigationDirection::Up, extend);
        break;
    case Qt::Key_Down:
        moveCurrent(NavigationDirection::Down, extend);
        break;
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
    case Qt::Key_Escape:
        selectOnly(-1);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        fitToView();
        break;
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
    default:
        QWidget::keyPressEvent(event);
        return;
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
        QString tip = tr("<b>%1 · %2</b><br>%3 · DP rank %4 / %5 · TP %6")
                          .arg(node.name.toHtmlEscaped(), e.id().toHtmlEscaped(), roleName(e.role))
                          .arg(e.dpRank)
                          .arg(group.dpSize)
                          .arg(group.tpSize);
        tip += QStringLiteral("<br>%1 <b>%2</b>")
                   .arg(stateGlyphHtml(state, fontMetrics().height(), stateMark(state)),
                       StateStyle::label(state).toHtmlEscaped());
        if (summary.since.isValid()) {
            const qint64 secs = summary.since.secsTo(QDateTime::currentDateTimeUtc());
            const QString ago
                = secs < 120 ? tr("%n s ago", nullptr, int(secs)) : tr("%n min ago", nullptr, int(secs / 60));
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
        QString tip = tr("<b>%1</b> · %2<br>%3 · %4 · %5 NPUs · %6")
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
