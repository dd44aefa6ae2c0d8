// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyhealth.h"
#include "state/enginestate.h"
#include "statestyle.h"
#include "topology/topologyfilter.h"
#include "topology/topologylayout.h"

#include <QHash>
#include <QList>
#include <QRegion>
#include <QStaticText>
#include <QVector>
#include <QWidget>

#include <array>
#include <vector>

class QFontMetrics;

namespace pd {

class EngineInfoProvider;

// What the node checks found wrong on a node (filled by the SSH issue's checks).
enum class NodeBadge { SshDown = 0x1, NpuUnhealthy = 0x2, NetworkCheckFailed = 0x4 };
Q_DECLARE_FLAGS(NodeBadges, NodeBadge)

// The cluster at a glance: the proxy, the prefill and decode pools, their nodes and every engine as a
// cell coloured by its state (or by a metric) with a glyph per state, painted with QPainter over a
// TopologyLayout (QGraphicsScene costs 135 ms per redraw at 5,000 items; this stays under a frame).
//
// Input: the profile (layout), per-engine states (setStates / setState; each setState repaints only
// that cell and the legend), an EngineInfoProvider for tooltips and metric colours, the proxy's
// /healthcheck, node badges. Interaction: wheel and +/- zoom, 0 fits, middle-, right- or Alt-drag pans;
// click selects, Shift/Ctrl-click adds or removes, drag draws a rubber band (Shift adds), arrows move
// through the engines (Shift extends), Enter or double-click activates, Esc clears. The filter dims
// engines that do not match. GUI thread only.
class TopologyView final : public QWidget {
    Q_OBJECT
public:
    enum class ColorBy { State, KvUsage, Running, GenerationRate };

    explicit TopologyView(QWidget *parent = nullptr);

    void setProfile(const Profile &profile);
    const TopologyLayout &layout() const { return m_layout; }
    void setLayoutMode(TopologyMode mode); // Auto: heatmap from 512 engines

    // States, one per engine in Profile::engines() order. A shorter vector leaves the rest Unknown.
    void setStates(const QVector<EngineState> &states);
    void setState(int engine, EngineState state);
    EngineState state(int engine) const { return m_states.value(engine, EngineState::Unknown); }
    int stateCount(EngineState state) const { return m_stateCounts[std::size_t(state)]; }

    void setInfoProvider(const EngineInfoProvider *provider); // not owned; nullptr: tooltips from the state only
    void setColorBy(ColorBy colorBy);
    ColorBy colorBy() const { return m_colorBy; }
    void refreshMetrics(); // re-reads metric values from the provider (once per poll round)

    void setProxyHealth(const ProxyHealth &health);
    void setNodeBadges(int node, NodeBadges badges, const QString &detail = {});
    NodeBadges nodeBadges(int node) const { return m_badges.value(node).badges; }

    void setFilter(const TopologyFilter &filter);
    const TopologyFilter &filter() const { return m_filter; }
    bool matchesFilter(int engine) const { return m_match[std::size_t(engine)] != 0; }
    int matchCount() const { return m_matchCount; }

    QList<int> selectedEngines() const;
    void setSelectedEngines(const QList<int> &engines);
    bool isSelected(int engine) const { return m_selected[std::size_t(engine)] != 0; }
    int currentEngine() const { return m_current; }
    void setCurrentEngine(int engine); // scrolls it into view

    // Zoom: scene units to pixels. fitToView() shows everything.
    double zoom() const { return m_scale; }
    void setZoom(double scale, QPointF anchor);
    void zoomIn();
    void zoomOut();
    void fitToView();
    // Geometry between the scene and the widget (for tests and the benchmark).
    QPointF mapToView(QPointF scene) const { return scene * m_scale + m_offset; }
    QPointF mapToScene(QPointF view) const { return (view - m_offset) / m_scale; }
    QRect engineViewRect(int engine) const;
    QRegion dirtyRegion(int engine) const; // the cell, its pool's title and its state's legend entry
    QRegion lastUpdateRegion() const { return m_lastDirty; } // what the last setState() repainted
    QRect legendRect() const { return m_legendRect; }

    // DP groups (docs/specs/dp-groups.md): a coupled group spanning several nodes is framed with its id; a group
    // whose ranks show GroupBroken is framed in the problem colour with a "group broken" band.
    struct GroupFrame {
        QString id;
        QRectF rect; // scene: around the group's node boxes
        QList<int> engines;
        int nodeCount = 0;
        bool coupled = true;
        int brokenRanks = 0; // ranks in EngineState::GroupBroken
    };
    const std::vector<GroupFrame> &groupFrames() const { return m_groupFrames; }
    bool isGroupBroken(const QString &groupId) const;
    QRect groupLabelViewRect(int frame) const; // where the frame's label is drawn (widget coordinates)

    QString toolTipFor(QPoint pos) const;
    QSize sizeHint() const override { return { 1200, 800 }; }

Q_SIGNALS:
    void selectionChanged(const QList<int> &engines);
    void currentChanged(int engine);
    void activated(int engine); // double-click or Enter
    // A right-click without a drag (or the context-menu key): `engine` (selected first when it was not)
    // or -1, `node` under the pointer or -1; the selection is what a menu acts on.
    void contextMenuRequested(int engine, int node, const QPoint &globalPos);
    // A right-click on the proxy's box: its menu (start, stop, restart the proxy).
    void proxyContextMenuRequested(const QPoint &globalPos);
    void filterMatchesChanged(int matching);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct BadgeInfo {
        NodeBadges badges;
        QString detail;
    };
    enum class Drag { None, Pending, Band, Pan };
    static constexpr int kLegendSwatch = 16;

    QRectF toView(const QRectF &scene) const;
    // What every paint pass reads, chosen once at the start of paintEvent from the view's palette.
    struct PaintContext {
        bool dark = false;
        const StateStyle::CanvasColors &canvas;
    };
    QColor cellColor(int engine, const PaintContext &ctx) const;
    void rebuildLayout();
    void recomputeMatches();
    void updateMatch(int engine);
    void layoutLegend();
    void selectOnly(int engine);
    void requestContextMenu(QPointF viewPos, QPoint globalPos);
    void applySelection(const std::vector<int> &engines, bool add);
    void emitSelection();
    void moveCurrent(NavigationDirection direction, bool extend);
    void ensureVisible(int engine);
    void updateEngine(int engine);

    void paintPools(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip);
    void paintProxy(QPainter &p, const PaintContext &ctx);
    void paintArrows(QPainter &p, const PaintContext &ctx);
    void paintNodes(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip);
    void paintBadges(QPainter &p, const PaintContext &ctx, const NodeBox &box, NodeBadges badges);
    void paintCells(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip);
    void paintLegend(QPainter &p, const PaintContext &ctx);
    void paintGroups(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip);
    void rebuildGroupFrames();
    void recountGroups();
    // A rank's state moved: keeps its group's broken count; the region to repaint with it.
    QRegion groupStateChanged(int engine, EngineState old, EngineState state);
    // The longest of the label's wordings (with the dead rank and the fix, without them, the bare verdict)
    // that fits maxWidth pixels with its padding; the shortest when none does.
    QString groupLabel(const GroupFrame &frame, const QFontMetrics &fm, int maxWidth) const;

    Profile m_profile;
    QList<Engine> m_engines;
    QStringList m_searchKeys;
    TopologyLayoutOptions m_options;
    TopologyLayout m_layout;
    QVector<EngineState> m_states;
    std::array<int, kEngineStateCount> m_stateCounts {};
    std::vector<char> m_selected;
    int m_selectedCount = 0;
    int m_current = -1;
    int m_hover = -1;
    TopologyFilter m_filter;
    std::vector<char> m_match;
    int m_matchCount = 0;
    ColorBy m_colorBy = ColorBy::State;
    std::vector<float> m_values;
    std::vector<GroupFrame> m_groupFrames;
    std::vector<int> m_frameOfEngine; // -1: not framed
    double m_valueMax = 1;
    const EngineInfoProvider *m_provider = nullptr;
    ProxyHealth m_proxy;
    bool m_hasProxy = false;
    QHash<int, BadgeInfo> m_badges;

    double m_scale = 1;
    QPointF m_offset;
    bool m_autoFit = true; // fits on resize until the user zooms or pans
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPointF m_pressOffset;
    QRect m_band;
    bool m_bandAdds = false;
    QRect m_legendRect;
    std::array<QRect, kEngineStateCount> m_legendItems;
    QRegion m_lastDirty;
    std::array<std::array<int, kEngineStateCount>, 2> m_poolCounts {}; // [prefill, decode][state]
    // Text is laid out once per zoom level (drawStaticText), not per frame.
    QStringList m_nodeLabels; // heatmap row labels
    std::vector<QStaticText> m_nodeTexts;
    double m_nodeTextPx = -1;
    std::vector<QStaticText> m_cellTexts; // boxes: "DP n" and ":port" per engine
    double m_cellTextPx = -1;
};

} // namespace pd

Q_DECLARE_OPERATORS_FOR_FLAGS(pd::NodeBadges)
