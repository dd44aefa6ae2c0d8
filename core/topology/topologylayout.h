// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "topology/spatialindex.h"

#include <QLineF>
#include <QList>
#include <QRectF>

#include <vector>

// Where everything of a cluster sits on the topology canvas, in scene coordinates (one unit is one
// pixel at zoom 1): the proxy at the top, the prefill and the decode pool side by side below it, each
// pool a group of node boxes, each node box holding its engines as cells; arrows for the request path
// (proxy -> pools) and the KV cache transfer (prefill -> decode).
//
// Two shapes: Boxes (every cell big enough for its DP rank and port) and Heatmap (node x DP-rank rows
// of small cells, pool rows wrapped into bands so a pool stays roughly square). Auto picks the heatmap
// from heatmapThreshold engines on. Pure geometry: no painting, no state; the view and the tests share it.
namespace pd {

enum class TopologyMode { Auto, Boxes, Heatmap };
enum class NavigationDirection { Left, Right, Up, Down };

struct TopologyLayoutOptions {
    TopologyMode mode = TopologyMode::Auto;
    int heatmapThreshold = 512; // Auto: heatmap from this many engines on
};

struct EngineCell {
    QRectF rect;
    int engine = -1; // index in Profile::engines()
    int node = -1; // index in Profile::nodes
    int slot = 0; // position inside its node (launcher order): the heatmap column
};

struct NodeBox {
    int node = -1;
    Role role = Role::Decode;
    QRectF rect; // the whole box (Boxes) or the whole row (Heatmap)
    QRectF titleRect; // name, address (Boxes); name and DP ranks (Heatmap)
    QRectF badgeRect; // room for node badges (SSH, NPU, network checks)
    int firstCell = 0; // the node's cells are cells()[firstCell, firstCell + cellCount)
    int cellCount = 0;
};

struct PoolGroup {
    Role role = Role::Decode;
    QRectF rect;
    QRectF titleRect;
    QList<int> nodes; // node indices, in profile order
    int columns = 0; // cells per row in a node box (Boxes) or per node row (Heatmap)
    QList<QRectF> headerRects; // Heatmap: one per band, above its cell columns (DP rank offsets)
};

enum class ArrowKind { Requests, KvTransfer };
struct TopologyArrow {
    ArrowKind kind = ArrowKind::Requests;
    QLineF line;
};

class TopologyLayout {
public:
    TopologyLayout() = default;
    static TopologyLayout build(const Profile &profile, const TopologyLayoutOptions &options = {});

    TopologyMode mode() const { return m_mode; } // Boxes or Heatmap, never Auto
    QRectF bounds() const { return m_bounds; }
    QRectF proxyRect() const { return m_proxyRect; }
    const std::vector<EngineCell> &cells() const { return m_cells; }
    const std::vector<NodeBox> &nodes() const { return m_nodes; } // index: profile node index
    const std::vector<PoolGroup> &pools() const { return m_pools; } // prefill, then decode
    const std::vector<TopologyArrow> &arrows() const { return m_arrows; }
    int engineCount() const { return int(m_cells.size()); }
    const EngineCell &cellOfEngine(int engine) const
    {
        return m_cells[std::size_t(m_cellOfEngine[std::size_t(engine)])];
    }
    QRectF engineRect(int engine) const { return cellOfEngine(engine).rect; }

    // Hit testing, in scene coordinates: the engine or node under a point (-1: none), the engines whose
    // cells a rubber band touches (ascending), the node boxes an area touches.
    int engineAt(const QPointF &point) const;
    int nodeAt(const QPointF &point) const;
    std::vector<int> enginesIn(const QRectF &area) const;
    std::vector<int> nodesIn(const QRectF &area) const;
    // Keyboard navigation: the nearest engine in a direction (-1 when there is none).
    int neighbour(int engine, NavigationDirection direction) const;

private:
    void layoutBoxes(const Profile &profile, PoolGroup &pool, QPointF origin);
    void layoutHeatmap(const Profile &profile, PoolGroup &pool, QPointF origin);
    void finish(const Profile &profile);

    TopologyMode m_mode = TopologyMode::Boxes;
    QRectF m_bounds;
    QRectF m_proxyRect;
    std::vector<EngineCell> m_cells;
    std::vector<int> m_cellOfEngine;
    std::vector<NodeBox> m_nodes;
    std::vector<PoolGroup> m_pools;
    std::vector<TopologyArrow> m_arrows;
    SpatialIndex m_cellIndex; // over cell rects, cell index = position in m_cells
    SpatialIndex m_nodeIndex; // over node rects, index = node index
};

} // namespace pd
