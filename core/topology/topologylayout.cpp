// SPDX-License-Identifier: MIT
#include "topology/topologylayout.h"

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

// Boxes: a cell holds two short lines ("DP 12", ":9012").
constexpr double kCellWidth = 64;
constexpr double kCellHeight = 40;
constexpr double kCellGap = 4;
constexpr int kMaxBoxColumns = 8;
constexpr double kNodePadding = 8;
constexpr double kNodeTitleHeight = 40;
constexpr double kNodeMinWidth = 250;
constexpr double kBadgeAreaWidth = 132;
constexpr double kNodeGap = 14;
// Heatmap: node rows of small square cells.
constexpr double kHeatCell = 12;
constexpr double kHeatPitch = 13;
constexpr double kHeatLabelWidth = 104;
constexpr double kHeatBadgeWidth = 16;
constexpr double kHeatHeaderHeight = 14;
constexpr double kBandGap = 20;
// Pools and proxy.
constexpr double kPoolTitleHeight = 30;
constexpr double kPoolPadding = 12;
constexpr double kEmptyPoolWidth = 240;
constexpr double kEmptyPoolHeight = 90;
constexpr double kPoolGap = 170; // room for the KV arrow between the pools
constexpr double kProxyWidth = 460;
constexpr double kProxyHeight = 64;
constexpr double kProxyGap = 80; // room for the request arrows
constexpr double kMargin = 16;
// A pool is laid out roughly this wide for its height (the two sit side by side on a wide screen).
constexpr double kPoolAspect = 0.8;

int roundedCount(double wanted, int max)
{
    return std::clamp(int(std::lround(wanted)), 1, std::max(1, max));
}

} // namespace

TopologyLayout TopologyLayout::build(const Profile &profile, const TopologyLayoutOptions &options)
{
    TopologyLayout layout;
    const QList<Engine> engines = profile.engines();
    layout.m_mode = options.mode;
    if (layout.m_mode == TopologyMode::Auto)
        layout.m_mode = engines.size() >= options.heatmapThreshold ? TopologyMode::Heatmap : TopologyMode::Boxes;

    layout.m_nodes.resize(std::size_t(profile.nodes.size()));
    for (int n = 0; n < profile.nodes.size(); ++n) {
        layout.m_nodes[std::size_t(n)].node = n;
        layout.m_nodes[std::size_t(n)].role = profile.nodes.at(n).role;
    }
    // Cells in engine order: a node's engines are contiguous in Profile::engines().
    layout.m_cells.resize(std::size_t(engines.size()));
    for (int e = 0; e < engines.size(); ++e) {
        EngineCell &cell = layout.m_cells[std::size_t(e)];
        cell.engine = e;
        cell.node = engines.at(e).nodeIndex;
        NodeBox &box = layout.m_nodes[std::size_t(cell.node)];
        if (box.cellCount == 0)
            box.firstCell = e;
        cell.slot = box.cellCount++;
    }

    const double poolTop = kProxyHeight + kProxyGap;
    double x = 0;
    for (Role role : { Role::Prefill, Role::Decode }) {
        PoolGroup pool;
        pool.role = role;
        for (int n = 0; n < profile.nodes.size(); ++n) {
            if (profile.nodes.at(n).role == role)
                pool.nodes.append(n);
        }
        if (layout.m_mode == TopologyMode::Heatmap)
            layout.layoutHeatmap(profile, pool, QPointF(x, poolTop));
        else
            layout.layoutBoxes(profile, pool, QPointF(x, poolTop));
        x = pool.rect.right() + kPoolGap;
        layout.m_pools.push_back(pool);
    }
    layout.finish(profile);
    return layout;
}

void TopologyLayout::layoutBoxes(const Profile &, PoolGroup &pool, QPointF origin)
{
    int maxEngines = 1;
    for (int n : std::as_const(pool.nodes))
        maxEngines = std::max(maxEngines, m_nodes[std::size_t(n)].cellCount);
    const int columns = std::min(maxEngines, kMaxBoxColumns);
    const int rows = (maxEngines + columns - 1) / columns;
    pool.columns = columns;
    const double cellsWidth = columns * kCellWidth + (columns - 1) * kCellGap;
    const double nodeWidth = std::max(kNodeMinWidth, 2 * kNodePadding + cellsWidth);
    const double nodeHeight = kNodeTitleHeight + rows * kCellHeight + (rows - 1) * kCellGap + kNodePadding;
    const int count = int(pool.nodes.size());
    const int nodeColumns = roundedCount(std::sqrt(count * nodeHeight * kPoolAspect / nodeWidth), count);

    pool.titleRect = QRectF(origin.x() + kPoolPadding, origin.y(), 0, kPoolTitleHeight);
    const QPointF first(origin.x() + kPoolPadding, origin.y() + kPoolTitleHeight);
    for (int k = 0; k < count; ++k) {
        NodeBox &box = m_nodes[std::size_t(pool.nodes.at(k))];
        const double left = first.x() + (k % nodeColumns) * (nodeWidth + kNodeGap);
        const double top = first.y() + (k / nodeColumns) * (nodeHeight + kNodeGap);
        box.rect = QRectF(left, top, nodeWidth, nodeHeight);
        box.badgeRect = QRectF(box.rect.right() - kNodePadding - kBadgeAreaWidth, top + 6, kBadgeAreaWidth, 18);
        box.titleRect = QRectF(left + kNodePadding, top + 4, nodeWidth - 2 * kNodePadding, kNodeTitleHeight - 8);
        for (int i = 0; i < box.cellCount; ++i) {
            EngineCell &cell = m_cells[std::size_t(box.firstCell + i)];
            cell.rect = QRectF(left + kNodePadding + (i % columns) * (kCellWidth + kCellGap),
                top + kNodeTitleHeight + (i / columns) * (kCellHeight + kCellGap), kCellWidth, kCellHeight);
        }
    }
    const int nodeRows = count ? (count + nodeColumns - 1) / nodeColumns : 0;
    const double width = count ? nodeColumns * nodeWidth + (nodeColumns - 1) * kNodeGap : kEmptyPoolWidth;
    const double height = count ? nodeRows * nodeHeight + (nodeRows - 1) * kNodeGap : kEmptyPoolHeight;
    pool.rect = QRectF(origin, QSizeF(width + 2 * kPoolPadding, kPoolTitleHeight + height + kPoolPadding));
    pool.titleRect.setWidth(width);
}

void TopologyLayout::layoutHeatmap(const Profile &, PoolGroup &pool, QPointF origin)
{
    int columns = 1;
    for (int n : std::as_const(pool.nodes))
        columns = std::max(columns, m_nodes[std::size_t(n)].cellCount);
    pool.columns = columns;
    const double cellsLeft = kHeatLabelWidth + kHeatBadgeWidth;
    const double bandWidth = cellsLeft + columns * kHeatPitch;
    const int count = int(pool.nodes.size());
    const int bands = roundedCount(std::sqrt(kPoolAspect * count * kHeatPitch / (bandWidth + kBandGap)), count);
    const int rowsPerBand = count ? (count + bands - 1) / bands : 0;

    pool.titleRect = QRectF(origin.x() + kPoolPadding, origin.y(), 0, kPoolTitleHeight);
    const QPointF first(origin.x() + kPoolPadding, origin.y() + kPoolTitleHeight + kHeatHeaderHeight);
    for (int b = 0; b < bands && count; ++b) {
        pool.headerRects.append(QRectF(first.x() + b * (bandWidth + kBandGap) + cellsLeft,
            origin.y() + kPoolTitleHeight, columns * kHeatPitch, kHeatHeaderHeight));
    }
    for (int k = 0; k < count; ++k) {
        NodeBox &box = m_nodes[std::size_t(pool.nodes.at(k))];
        const double left = first.x() + (k / rowsPerBand) * (bandWidth + kBandGap);
        const double top = first.y() + (k % rowsPerBand) * kHeatPitch;
        box.rect = QRectF(left, top, bandWidth, kHeatCell);
        box.titleRect = QRectF(left, top, kHeatLabelWidth - 4, kHeatCell);
        box.badgeRect = QRectF(left + kHeatLabelWidth, top, kHeatBadgeWidth - 3, kHeatCell);
        for (int i = 0; i < box.cellCount; ++i)
            m_cells[std::size_t(box.firstCell + i)].rect
                = QRectF(left + cellsLeft + i * kHeatPitch, top, kHeatCell, kHeatCell);
    }
    const double width = count ? bands * bandWidth + (bands - 1) * kBandGap : kEmptyPoolWidth;
    const double height = count ? kHeatHeaderHeight + rowsPerBand * kHeatPitch : kEmptyPoolHeight;
    pool.rect = QRectF(origin, QSizeF(width + 2 * kPoolPadding, kPoolTitleHeight + height + kPoolPadding));
    pool.titleRect.setWidth(width);
}

void TopologyLayout::finish(const Profile &)
{
    const PoolGroup &prefill = m_pools[0];
    const PoolGroup &decode = m_pools[1];
    const double width = decode.rect.right();
    m_proxyRect = QRectF((width - kProxyWidth) / 2, 0, kProxyWidth, kProxyHeight);
    for (const PoolGroup *pool : { &prefill, &decode }) {
        const double fromX = m_proxyRect.center().x() + (pool == &prefill ? -kProxyWidth / 4 : kProxyWidth / 4);
        m_arrows.push_back({ ArrowKind::Requests,
            QLineF(QPointF(fromX, m_proxyRect.bottom()), QPointF(pool->rect.center().x(), pool->rect.top())) });
    }
    const double kvY = prefill.rect.top() + std::min(prefill.rect.height(), decode.rect.height()) / 2;
    m_arrows.push_back(
        { ArrowKind::KvTransfer, QLineF(QPointF(prefill.rect.right(), kvY), QPointF(decode.rect.left(), kvY)) });

    m_bounds = m_proxyRect.united(prefill.rect).united(decode.rect).adjusted(-kMargin, -kMargin, kMargin, kMargin);

    std::vector<QRectF> cellRects;
    cellRects.reserve(m_cells.size());
    m_cellOfEngine.assign(m_cells.size(), -1);
    for (std::size_t i = 0; i < m_cells.size(); ++i) {
        cellRects.push_back(m_cells[i].rect);
        m_cellOfEngine[std::size_t(m_cells[i].engine)] = int(i);
    }
    const double pitch = m_mode == TopologyMode::Heatmap ? kHeatPitch : kCellWidth + kCellGap;
    m_cellIndex.build(cellRects, 4 * pitch);
    std::vector<QRectF> nodeRects;
    nodeRects.reserve(m_nodes.size());
    for (const NodeBox &box : m_nodes)
        nodeRects.push_back(box.rect);
    m_nodeIndex.build(nodeRects, m_mode == TopologyMode::Heatmap ? 8 * kHeatPitch : 2 * kNodeMinWidth);
}

int TopologyLayout::engineAt(const QPointF &point) const
{
    const int cell = m_cellIndex.at(point);
    return cell < 0 ? -1 : m_cells[std::size_t(cell)].engine;
}

int TopologyLayout::nodeAt(const QPointF &point) const
{
    return m_nodeIndex.at(point);
}

std::vector<int> TopologyLayout::enginesIn(const QRectF &area) const
{
    std::vector<int> engines;
    const std::vector<int> cells = m_cellIndex.intersecting(area);
    engines.reserve(cells.size());
    for (int cell : cells)
        engines.push_back(m_cells[std::size_t(cell)].engine);
    std::sort(engines.begin(), engines.end());
    return engines;
}

std::vector<int> TopologyLayout::nodesIn(const QRectF &area) const
{
    return m_nodeIndex.intersecting(area);
}

int TopologyLayout::neighbour(int engine, NavigationDirection direction) const
{
    if (engine < 0 || engine >= engineCount())
        return -1;
    const QPointF from = engineRect(engine).center();
    int best = -1;
    double bestScore = 0;
    for (const EngineCell &cell : m_cells) {
        const QPointF d = cell.rect.center() - from;
        double along = 0;
        double across = 0;
        switch (direction) {
        case NavigationDirection::Left:
            along = -d.x();
            across = d.y();
            break;
        case NavigationDirection::Right:
            along = d.x();
            across = d.y();
            break;
        case NavigationDirection::Up:
            along = -d.y();
            across = d.x();
            break;
        case NavigationDirection::Down:
            along = d.y();
            across = d.x();
            break;
        }
        // Ahead of the cell, inside a wide cone; straight lines win over diagonals.
        if (along < 0.5 || std::abs(across) > 2 * along)
            continue;
        const double score = along + 3 * std::abs(across);
        if (best < 0 || score < bestScore) {
            best = cell.engine;
            bestScore = score;
        }
    }
    return best;
}

} // namespace pd
