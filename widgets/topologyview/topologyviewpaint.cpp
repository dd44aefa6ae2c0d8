// SPDX-License-Identifier: MIT
// TopologyView's painting: pools, proxy, arrows, nodes, cells (fills, then the cues besides colour,
// then selection rings) and the legend. Every pass touches only what intersects the repainted region.
#include "topologyview/topologyview.h"

#include "stateappearance.h"
#include "topologyview/statestyle.h"

#include "apptheme.h"

#include <QFontMetrics>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

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
    case TopologyView::ColorBy::KvUsage:
        return TopologyView::tr("KV cache");
    case TopologyView::ColorBy::Running:
        return TopologyView::tr("running requests");
    case TopologyView::ColorBy::GenerationRate:
        return TopologyView::tr("generation tokens/s");
    case TopologyView::ColorBy::State:
        break;
    }
    return TopologyView::tr("state");
}

} // namespace

// --- painting --------------------------------------------------------------------------------------

QColor TopologyView::cellColor(int engine, const PaintContext &ctx) const
{
    if (m_colorBy == ColorBy::State)
        return StateStyle::fill(m_states[engine], ctx.dark);
    const float v = m_values[std::size_t(engine)];
    if (std::isnan(v))
        return ctx.canvas.noData;
    return metricColor(double(v) / m_valueMax);
}

void TopologyView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    const bool dark = isDark(palette());
    const PaintContext ctx { dark, StateStyle::canvasColors(dark) };
    for (const QRect &clip : event->region()) {
        p.save();
        p.setClipRect(clip);
        p.fillRect(clip, ctx.canvas.background);
        const QRectF sceneClip = QRectF(mapToScene(clip.topLeft()), mapToScene(clip.bottomRight() + QPoint(1, 1)));
        paintPools(p, ctx, sceneClip);
        if (sceneClip.intersects(m_layout.proxyRect().adjusted(-4, -4, 4, 4)))
            paintProxy(p, ctx);
        paintArrows(p, ctx);
        paintNodes(p, ctx, sceneClip);
        paintGroups(p, ctx, sceneClip);
        paintCells(p, ctx, sceneClip);
        if (m_drag == Drag::Band && clip.intersects(m_band.adjusted(-1, -1, 1, 1))) {
            p.setPen(QPen(ctx.canvas.selection, 1, Qt::DashLine));
            p.setBrush(ctx.canvas.selectionBand);
            p.drawRect(m_band);
        }
        if (clip.intersects(m_legendRect))
            paintLegend(p, ctx);
        p.restore();
    }
    if (hasFocus() && m_current < 0) {
        p.setPen(QPen(ctx.canvas.selection, 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

void TopologyView::paintGroups(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip)
{
    for (int f = 0; f < int(m_groupFrames.size()); ++f) {
        const GroupFrame &frame = m_groupFrames[std::size_t(f)];
        const bool broken = frame.brokenRanks > 0;
        // A group on one node is its node box already; frame the ones that span nodes, and every broken one.
        if (!broken && (!frame.coupled || frame.nodeCount < 2))
            continue;
        if (!frame.rect.adjusted(-4, -4, 4, 30).intersects(sceneClip))
            continue;
        const QRectF r = toView(frame.rect);
        const Role role = frame.engines.isEmpty() ? Role::Decode : m_engines.at(frame.engines.first()).role;
        p.save();
        p.setRenderHint(QPainter::Antialiasing);
        if (broken) {
            QColor tint = ctx.canvas.bad;
            tint.setAlpha(ctx.dark ? 46 : 30);
            p.setPen(QPen(ctx.canvas.bad, 3));
            p.setBrush(tint);
        } else {
            p.setPen(QPen(role == Role::Prefill ? ctx.canvas.prefillBorder : ctx.canvas.decodeBorder, 2, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
        }
        p.drawRoundedRect(r, 6, 6);
        const QRect label = groupLabelViewRect(f);
        const QFont labelFont = pixelFont(font(), std::clamp(12 * m_scale, 10.0, 14.0), true);
        p.setFont(labelFont);
        p.setPen(broken ? QPen(ctx.canvas.bad, 1)
                        : QPen(role == Role::Prefill ? ctx.canvas.prefillBorder : ctx.canvas.decodeBorder, 1));
        p.setBrush(broken ? ctx.canvas.bad : ctx.canvas.panel);
        p.drawRoundedRect(label, 4, 4);
        p.setPen(broken ? StateStyle::ink(ctx.canvas.bad) : ctx.canvas.text);
        p.drawText(label.adjusted(7, 0, -5, 0), Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetrics(labelFont).elidedText(
                groupLabel(frame, QFontMetrics(labelFont), label.width()), Qt::ElideRight, label.width() - 12));
        p.restore();
    }
}

void TopologyView::paintPools(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip)
{
    for (const PoolGroup &pool : m_layout.pools()) {
        if (!pool.rect.intersects(sceneClip))
            continue;
        const QRectF r = toView(pool.rect);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(pool.role == Role::Prefill ? ctx.canvas.prefillBorder : ctx.canvas.decodeBorder, 1));
        p.setBrush(pool.role == Role::Prefill ? ctx.canvas.prefillTint : ctx.canvas.decodeTint);
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
            + counts[std::size_t(EngineState::Unreachable)] + counts[std::size_t(EngineState::GroupBroken)];
        const int nodeCount = int(pool.nodes.size());
        // Failing engines first: when the pool is narrow, the title elides its end, never that count. It
        // counts engines, not problems: a broken DP group of 16 ranks is 16 failing and one Problems row.
        QString title = pool.role == Role::Prefill ? tr("Prefill") : tr("Decode");
        if (problems)
            title += tr(" · %n engine(s) failing", nullptr, problems);
        title += (nodeCount == 1 ? tr(" · 1 node") : tr(" · %1 nodes").arg(nodeCount))
            + (engines == 1 ? tr(" · 1 engine") : tr(" · %1 engines").arg(engines));
        const double px = std::clamp(15 * m_scale, 9.0, 18.0);
        p.setFont(pixelFont(font(), px, true));
        const QFontMetrics fm(p.font());
        const QRectF t = toView(pool.titleRect);
        const QString withServing = title + tr(" · %1 serving").arg(serving);
        if (fm.horizontalAdvance(withServing) <= t.width())
            title = withServing; // only when it fits: the problems count must never be elided away
        p.setPen(problems ? ctx.canvas.bad : ctx.canvas.text);
        p.drawText(
            t, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(title, Qt::ElideRight, int(std::max(40.0, t.width()))));
        // Heatmap: DP rank offsets above the columns.
        const double pitch = m_layout.mode() == TopologyMode::Heatmap && pool.columns > 0
            ? (pool.headerRects.isEmpty() ? 0 : pool.headerRects.first().width() / pool.columns * m_scale)
            : 0;
        if (pitch > 0 && 4 * pitch >= 18) {
            p.setFont(pixelFont(font(), std::clamp(pitch * 0.75, 7.0, 11.0)));
            p.setPen(ctx.canvas.mutedText);
            const int step = pitch >= 20 ? 1 : pitch >= 9 ? 4 : 8;
            for (const QRectF &header : pool.headerRects) {
                const QRectF h = toView(header);
                for (int c = 0; c < pool.columns; c += step)
                    p.drawText(QRectF(h.left() + c * pitch, h.top(), 3 * pitch, h.height()),
                        Qt::AlignLeft | Qt::AlignBottom, QStringLiteral("+%1").arg(c));
            }
        }
    }
}

void TopologyView::paintProxy(QPainter &p, const PaintContext &ctx)
{
    const QRectF r = toView(m_layout.proxyRect());
    const bool known = m_hasProxy;
    const bool up = known && m_proxy.reachable;
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(!known ? ctx.canvas.nodeBorder : up ? ctx.canvas.good : ctx.canvas.bad, up || !known ? 1.5 : 3));
    p.setBrush(ctx.canvas.panel);
    p.drawRoundedRect(r, 8, 8);
    p.setRenderHint(QPainter::Antialiasing, false);
    const double px = std::clamp(14 * m_scale, 8.0, 18.0);
    const QRectF inner = r.adjusted(12 * m_scale, 6 * m_scale, -12 * m_scale, -6 * m_scale);
    p.setFont(pixelFont(font(), px, true));
    p.setPen(ctx.canvas.text);
    const QString where = QStringLiteral("%1:%2").arg(m_profile.proxy.address).arg(m_profile.proxy.port);
    p.drawText(inner, Qt::AlignTop | Qt::AlignHCenter, tr("Proxy %1").arg(where));
    QString line;
    QColor color = ctx.canvas.mutedText;
    if (!known) {
        line = tr("not polled yet");
    } else if (up) {
        line = tr("in proxy: %1 prefill · %2 decode").arg(m_proxy.prefillInstances).arg(m_proxy.decodeInstances);
        if (m_proxy.requestNum)
            line += tr(" · %n request(s) in flight", nullptr, *m_proxy.requestNum);
        color = ctx.canvas.text;
    } else {
        line = tr("✖ unreachable: %1").arg(m_proxy.error);
        color = ctx.canvas.bad;
    }
    const int profilePrefill = int(m_profile.proxyInstances(Role::Prefill).size());
    const int profileDecode = int(m_profile.proxyInstances(Role::Decode).size());
    p.setFont(pixelFont(font(), px * 0.85));
    const QFontMetrics fm(p.font());
    p.setPen(color);
    p.drawText(inner, Qt::AlignVCenter | Qt::AlignHCenter, fm.elidedText(line, Qt::ElideRight, int(inner.width())));
    p.setPen(ctx.canvas.mutedText);
    p.drawText(inner, Qt::AlignBottom | Qt::AlignHCenter,
        tr("profile: %1 prefill · %2 decode instances").arg(profilePrefill).arg(profileDecode));
}

void TopologyView::paintArrows(QPainter &p, const PaintContext &ctx)
{
    p.setRenderHint(QPainter::Antialiasing);
    for (const TopologyArrow &arrow : m_layout.arrows()) {
        const QLineF line(mapToView(arrow.line.p1()), mapToView(arrow.line.p2()));
        if (arrow.kind == ArrowKind::Requests) {
            drawArrow(p, line, ctx.canvas.requestArrow, std::max(1.0, 2 * m_scale));
            continue;
        }
        drawArrow(p, line, ctx.canvas.kvArrow, std::max(1.5, 4 * m_scale));
        const double px = std::clamp(12 * m_scale, 8.0, 14.0);
        p.setFont(pixelFont(font(), px, true));
        p.setPen(ctx.canvas.kvArrow);
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

void TopologyView::paintNodes(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip)
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
            p.setPen(QPen(badges ? ctx.canvas.bad : ctx.canvas.nodeBorder, badges ? 2 : 1));
            p.setBrush(m_filter.node == n ? ctx.canvas.filteredNode : ctx.canvas.panel);
            p.drawRoundedRect(r, 5, 5);
            p.setRenderHint(QPainter::Antialiasing, false);
        }
        if (badges)
            paintBadges(p, ctx, box, badges);
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
            p.setPen(ctx.canvas.text);
            p.drawStaticText(QPointF(t.left(), t.center().y() - text.size().height() / 2), text);
            continue;
        }
        const QRectF badgeArea = toView(box.badgeRect);
        const double nameWidth = badges ? badgeArea.left() - t.left() - 4 : t.width();
        p.setFont(bold);
        p.setPen(ctx.canvas.text);
        const QFontMetrics fmBold(bold);
        const QString name = fmBold.elidedText(node.name, Qt::ElideRight, int(nameWidth));
        p.drawText(t, Qt::AlignTop | Qt::AlignLeft, name);
        p.setFont(plain);
        p.setPen(ctx.canvas.mutedText);
        const double after = fmBold.horizontalAdvance(name) + titlePx * 0.6;
        if (nameWidth - after > 30)
            p.drawText(t.adjusted(after, titlePx * 0.1, 0, 0), Qt::AlignTop | Qt::AlignLeft,
                QFontMetrics(plain).elidedText(node.address, Qt::ElideRight, int(nameWidth - after)));
        const int tp = node.engineGroups.isEmpty() ? 0 : node.engineGroups.first().tpSize;
        const QString detail = box.cellCount
            ? (box.cellCount == 1 ? tr("DP %1 · TP %2 · 1 engine").arg(lo).arg(tp)
                                  : tr("DP %1–%2 · TP %3 · %4 engines").arg(lo).arg(hi).arg(tp).arg(box.cellCount))
            : tr("no engines");
        p.drawText(
            t, Qt::AlignBottom | Qt::AlignLeft, QFontMetrics(plain).elidedText(detail, Qt::ElideRight, int(t.width())));
    }
}

void TopologyView::paintBadges(QPainter &p, const PaintContext &ctx, const NodeBox &box, NodeBadges badges)
{
    const QRectF area = toView(box.badgeRect);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_layout.mode() == TopologyMode::Heatmap || area.height() < 12) {
        // One marker: the tooltip lists what is wrong.
        const double s = std::min(area.width(), area.height());
        const QRectF mark(area.left(), area.center().y() - s / 2, s, s);
        p.setPen(Qt::NoPen);
        p.setBrush(ctx.canvas.bad);
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
    } all[] = { { NodeBadge::SshDown, tr("SSH") }, { NodeBadge::NpuUnhealthy, tr("NPU") },
        { NodeBadge::NetworkCheckFailed, tr("NET") } };
    p.setFont(pixelFont(font(), area.height() * 0.62, true));
    const double w = area.width() / 3;
    double x = area.right();
    for (int i = 2; i >= 0; --i) {
        if (!badges.testFlag(all[i].badge))
            continue;
        const QRectF pill(x - w + 2, area.top(), w - 2, area.height());
        p.setPen(Qt::NoPen);
        p.setBrush(ctx.canvas.bad);
        p.drawRoundedRect(pill, area.height() / 2, area.height() / 2);
        p.setPen(Qt::white);
        p.drawText(pill, Qt::AlignCenter, QStringLiteral("✖") + all[i].text);
        x -= w;
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TopologyView::paintCells(QPainter &p, const PaintContext &ctx, const QRectF &sceneClip)
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
        return QRect(left, top, std::max(1, int(std::lround(r.right())) - left),
            std::max(1, int(std::lround(r.bottom())) - top));
    };

    // 1. Fills (the only pass at tiny zoom).
    for (int e : visible) {
        const QRect r = pixels(e);
        QColor c = cellColor(e, ctx);
        const bool dim = !m_match[std::size_t(e)];
        if (dim)
            c = blend(c, ctx.canvas.background, 0.8);
        p.fillRect(r, c);
        if (m_colorBy != ColorBy::State && std::isnan(m_values[std::size_t(e)]) && !dim)
            p.fillRect(r, QBrush(ctx.canvas.noDataHatch, Qt::BDiagPattern));
    }
    // 2. Problem borders, glyphs and labels: the cues besides colour.
    const int glyphSize = int(std::min(cellW, cellH) * (heat ? 0.72 : 0.42));
    const bool labels = !heat && cellW >= 46 && cellH >= 26;
    const double labelPx = std::clamp(std::round(cellH * 0.3), 7.0, 16.0);
    const QColor dark = ctx.canvas.problemBorder;
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
        const QColor fill = cellColor(e, ctx);
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
        if (glyphSize >= 7 && stateAppearance(state).glyphOnCell) {
            const QPoint at = heat || !labels ? r.center() - QPoint(glyphSize / 2 - 1, glyphSize / 2 - 1)
                                              : QPoint(r.right() - glyphSize - 3, r.bottom() - glyphSize - 3);
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
            p.setPen(QPen(ctx.canvas.selection, 2.5));
            p.drawRect(r.adjusted(-1.5, -1.5, 1.5, 1.5));
            p.setPen(QPen(Qt::white, 1));
            p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (e == m_current && hasFocus()) {
            p.setPen(QPen(ctx.canvas.keyboardFocus, 1.5, Qt::DashLine));
            p.drawRect(r.adjusted(-2.5, -2.5, 2.5, 2.5));
        } else if (e == m_hover && !selected) {
            p.setPen(QPen(ctx.canvas.text, 1));
            p.drawRect(r.adjusted(-1, -1, 1, 1));
        }
    }
}

void TopologyView::paintLegend(QPainter &p, const PaintContext &ctx)
{
    const QRect r = m_legendRect;
    p.setPen(QPen(ctx.canvas.nodeBorder, 1));
    p.setBrush(ctx.canvas.panel);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setFont(font());
    const QFontMetrics fm(font());
    const int rowHeight = std::max(kLegendSwatch, fm.height()) + 6;
    int x = r.left() + 10;
    int y = r.top() + 4;
    if (m_colorBy != ColorBy::State) {
        const QString title = tr("Colour: %1").arg(metricLabel(m_colorBy));
        p.setPen(ctx.canvas.text);
        p.drawText(QRect(x, y, fm.horizontalAdvance(title) + 8, rowHeight), Qt::AlignVCenter, title);
        x += fm.horizontalAdvance(title) + 14;
        const QString low = m_colorBy == ColorBy::KvUsage ? QStringLiteral("0 %") : QStringLiteral("0");
        const QString high = m_colorBy == ColorBy::KvUsage ? QStringLiteral("100 %")
                                                           : QString::number(m_valueMax, 'f', m_valueMax < 10 ? 1 : 0);
        p.drawText(QRect(x, y, fm.horizontalAdvance(low) + 4, rowHeight), Qt::AlignVCenter, low);
        x += fm.horizontalAdvance(low) + 6;
        for (int i = 0; i < 160; ++i)
            p.fillRect(QRect(x + i, y + 4, 1, rowHeight - 8), metricColor(i / 159.0));
        x += 166;
        p.drawText(QRect(x, y, fm.horizontalAdvance(high) + 4, rowHeight), Qt::AlignVCenter, high);
        x += fm.horizontalAdvance(high) + 16;
        const QRect none(x, y + (rowHeight - kLegendSwatch) / 2, kLegendSwatch, kLegendSwatch);
        p.fillRect(none, ctx.canvas.noData);
        p.fillRect(none, QBrush(ctx.canvas.noDataHatch, Qt::BDiagPattern));
        p.drawText(
            QRect(x + kLegendSwatch + 6, y, 200, rowHeight), Qt::AlignVCenter, tr("no data · marks show the state"));
    }
    for (int s = 0; s < StateStyle::kStateCount; ++s) {
        const EngineState state = EngineState(s);
        const QRect item = m_legendItems[std::size_t(s)];
        if (!p.clipBoundingRect().intersects(item))
            continue;
        const QString text = QStringLiteral("%1 %2").arg(StateStyle::label(state)).arg(m_stateCounts[std::size_t(s)]);
        const QRect swatch(item.left(), item.top() + (rowHeight - kLegendSwatch) / 2, kLegendSwatch, kLegendSwatch);
        const QColor fill = StateStyle::fill(state, ctx.dark);
        p.fillRect(swatch, fill);
        if (StateStyle::isProblem(state)) {
            p.setPen(QPen(ctx.canvas.problemBorder, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        }
        if (stateAppearance(state).glyphOnCell)
            p.drawPixmap(
                swatch.topLeft() + QPoint(2, 2), StateStyle::glyph(state, kLegendSwatch - 4, StateStyle::ink(fill)));
        p.setPen(m_stateCounts[std::size_t(s)] && StateStyle::isProblem(state) ? ctx.canvas.bad : ctx.canvas.text);
        p.drawText(item.adjusted(kLegendSwatch + 6, 0, 0, 0), Qt::AlignVCenter, text);
    }
}

} // namespace pd
