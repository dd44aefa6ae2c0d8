// SPDX-License-Identifier: MIT
// TopologyView's DP group frames: which node boxes a group spans, and whether its ranks show it broken.
// The painting is in topologyviewpaint.cpp with the other passes.
#include "topologyview/topologyview.h"

#include "cluster/dpgroups.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

// Outside the node boxes, inside the gap between them (the layout's node gap is 14).
constexpr double kFrameMargin = 6;

} // namespace

void TopologyView::rebuildGroupFrames()
{
    m_groupFrames.clear();
    m_frameOfEngine.assign(std::size_t(m_engines.size()), -1);
    if (m_profile.nodes.isEmpty())
        return;
    const DpGroups groups(m_profile);
    for (const DpGroup &group : groups.groups()) {
        GroupFrame frame;
        frame.id = group.id;
        frame.coupled = group.coupled;
        frame.engines = group.engines;
        QRectF rect;
        for (const QString &name : group.nodeNames) {
            for (int n = 0; n < m_profile.nodes.size(); ++n) {
                if (m_profile.nodes.at(n).name != name || std::size_t(n) >= m_layout.nodes().size())
                    continue;
                rect = rect.isNull() ? m_layout.nodes()[std::size_t(n)].rect
                                     : rect.united(m_layout.nodes()[std::size_t(n)].rect);
                ++frame.nodeCount;
            }
        }
        if (rect.isNull())
            continue;
        frame.rect = rect.adjusted(-kFrameMargin, -kFrameMargin, kFrameMargin, kFrameMargin);
        for (int engine : group.engines) {
            if (engine >= 0 && std::size_t(engine) < m_frameOfEngine.size())
                m_frameOfEngine[std::size_t(engine)] = int(m_groupFrames.size());
        }
        m_groupFrames.push_back(frame);
    }
    recountGroups();
}

void TopologyView::recountGroups()
{
    for (GroupFrame &frame : m_groupFrames) {
        frame.brokenRanks = 0;
        for (int engine : std::as_const(frame.engines))
            frame.brokenRanks += m_states.value(engine) == EngineState::GroupBroken ? 1 : 0;
    }
}

QRegion TopologyView::groupStateChanged(int engine, EngineState old, EngineState state)
{
    const int f
        = engine >= 0 && std::size_t(engine) < m_frameOfEngine.size() ? m_frameOfEngine[std::size_t(engine)] : -1;
    if (f < 0)
        return {};
    GroupFrame &frame = m_groupFrames[std::size_t(f)];
    const bool wasBroken = frame.brokenRanks > 0;
    frame.brokenRanks += (state == EngineState::GroupBroken ? 1 : 0) - (old == EngineState::GroupBroken ? 1 : 0);
    const bool broken = frame.brokenRanks > 0;
    if (wasBroken != broken) // the frame appears or goes: the whole group and its label
        return QRegion(toView(frame.rect).toAlignedRect().adjusted(-4, -4, 4, 40));
    if (broken) // the label names the dead ranks
        return QRegion(groupLabelViewRect(f).adjusted(-2, -2, 2, 2));
    return {};
}

bool TopologyView::isGroupBroken(const QString &groupId) const
{
    for (const GroupFrame &frame : m_groupFrames) {
        if (frame.id == groupId)
            return frame.brokenRanks > 0;
    }
    return false;
}

QString TopologyView::groupLabel(const GroupFrame &frame, const QFontMetrics &fm, int maxWidth) const
{
    QStringList wordings;
    if (frame.brokenRanks == 0) {
        wordings
            = { tr("DP group %1 · %2 ranks on %3 nodes").arg(frame.id).arg(frame.engines.size()).arg(frame.nodeCount),
                  tr("DP group %1").arg(frame.id) };
    } else {
        QStringList dead;
        for (int engine : frame.engines) {
            const EngineState s = m_states.value(engine);
            if (s == EngineState::Unreachable || s == EngineState::Stopped || s == EngineState::Unhealthy)
                dead.append(m_engines.at(engine).id());
        }
        QString deadText;
        if (dead.size() == 1)
            deadText = tr(" · %1 dead").arg(dead.first());
        else if (dead.size() > 1)
            deadText = tr(" · %1 and %2 more dead").arg(dead.first()).arg(dead.size() - 1);
        wordings = { tr("GROUP BROKEN · %1%2 · restart the group").arg(frame.id, deadText),
            tr("GROUP BROKEN · %1%2").arg(frame.id, deadText), tr("GROUP BROKEN · %1").arg(frame.id),
            tr("GROUP BROKEN") };
    }
    for (const QString &text : std::as_const(wordings)) {
        if (fm.horizontalAdvance(text) + 14 <= maxWidth)
            return text;
    }
    return wordings.last();
}

QRect TopologyView::groupLabelViewRect(int f) const
{
    const GroupFrame &frame = m_groupFrames[std::size_t(f)];
    const QRectF r = toView(frame.rect);
    QFont font = this->font();
    font.setPixelSize(int(std::lround(std::clamp(12 * m_scale, 10.0, 14.0))));
    font.setBold(true);
    const QFontMetrics fm(font);
    const int height = fm.height() + 4;
    // Within its frame, so a narrow group's band does not cover its neighbours.
    const int maxWidth = std::max(40, int(r.width()) - 16);
    const int width = std::min(fm.horizontalAdvance(groupLabel(frame, fm, maxWidth)) + 14, maxWidth);
    // On the frame's bottom edge: below a node box's cells there is only its padding, while its top holds
    // the node's title (and the first row's the pool's).
    return QRect(int(r.left()) + 8, int(r.bottom()) - height / 2, width, height);
}

} // namespace pd
