// SPDX-License-Identifier: MIT
#include "clustersim/dpgroupcoordinator.h"

#include <QDateTime>

#include <algorithm>

namespace pd::sim {

struct DpGroupCoordinator::Group {
    const pd::DpGroup *group = nullptr;
    Timing timing;
    QList<RankState> ranks;
    QList<quint64> serials;
    QTimer joinTimer;
    QTimer watchdogTimer;
    GroupState state = GroupState::Stopped;
    qint64 sinceMs = 0;
    QString lastExit;
    int deadRank = -1; // the DP rank whose death broke the group

    int count(RankState s) const { return int(std::count(ranks.begin(), ranks.end(), s)); }
};

DpGroupCoordinator::DpGroupCoordinator(
    const pd::DpGroups &groups, QList<Timing> timing, double timeScale, RankActions actions, QObject *parent)
    : QObject(parent)
    , m_dpGroups(groups)
    , m_timeScale(std::max(1e-9, timeScale))
    , m_actions(std::move(actions))
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (qsizetype gi = 0; gi < m_dpGroups.groups().size(); ++gi) {
        const pd::DpGroup &dg = m_dpGroups.groups().at(gi);
        auto g = std::make_unique<Group>();
        g->group = &dg;
        g->timing = timing.value(gi);
        g->ranks = QList<RankState>(dg.size(), RankState::Down);
        g->serials = QList<quint64>(dg.size(), 0);
        g->state = dg.coupled ? GroupState::Stopped : GroupState::Independent;
        g->sinceMs = now;
        g->joinTimer.setSingleShot(true);
        g->watchdogTimer.setSingleShot(true);
        Group *raw = g.get();
        connect(&g->joinTimer, &QTimer::timeout, this, [this, raw] { joinTimedOut(*raw); });
        connect(&g->watchdogTimer, &QTimer::timeout, this, [this, raw] { watchdogFired(*raw); });
        for (const int engine : dg.engines) {
            if (engine >= m_groupOfEngine.size())
                m_groupOfEngine.resize(engine + 1, -1);
            m_groupOfEngine[engine] = int(gi);
        }
        m_groups.push_back(std::move(g));
    }
}

DpGroupCoordinator::~DpGroupCoordinator() = default;

int DpGroupCoordinator::realMs(double simulatedSeconds) const
{
    return int(std::clamp(simulatedSeconds / m_timeScale * 1000.0, 1.0, 2e9));
}

int DpGroupCoordinator::groupOf(int engineIndex) const
{
    return m_groupOfEngine.value(engineIndex, -1);
}

DpGroupCoordinator::Group *DpGroupCoordinator::groupFor(int engineIndex, int *position) const
{
    const int gi = groupOf(engineIndex);
    if (gi < 0)
        return nullptr;
    Group *g = m_groups.at(std::size_t(gi)).get();
    *position = int(g->group->engines.indexOf(engineIndex));
    return g;
}

bool DpGroupCoordinator::manages(int engineIndex) const
{
    int position = -1;
    const Group *g = groupFor(engineIndex, &position);
    return g && g->group->coupled && position >= 0;
}

DpGroupCoordinator::RankState DpGroupCoordinator::rankState(int engineIndex) const
{
    int position = -1;
    const Group *g = groupFor(engineIndex, &position);
    return g && position >= 0 ? g->ranks.at(position) : RankState::Down;
}

void DpGroupCoordinator::start(int engineIndex)
{
    int position = -1;
    Group *g = groupFor(engineIndex, &position);
    if (!g || !g->group->coupled || position < 0)
        return;
    const RankState s = g->ranks.at(position);
    if (s == RankState::Joining || s == RankState::Member)
        return; // already started: like starting a running process, nothing happens
    // Down: a new process. Frozen: the launcher kills the stuck process holding the port and starts
    // the rank again (startGated does both), so a broken group is restarted by starting its ranks.
    g->ranks[position] = RankState::Joining;
    const quint64 serial = ++g->serials[position];
    g->lastExit.clear();
    m_actions.startGated(engineIndex, serial);
    if (g->count(RankState::Frozen) == 0)
        g->watchdogTimer.stop();
    if (g->count(RankState::Joining) == g->ranks.size())
        form(*g);
    else if (!g->joinTimer.isActive())
        g->joinTimer.start(realMs(g->timing.joinTimeoutSeconds));
    update(*g);
}

void DpGroupCoordinator::stop(int engineIndex)
{
    int position = -1;
    Group *g = groupFor(engineIndex, &position);
    if (!g || !g->group->coupled || position < 0)
        return;
    m_actions.stop(engineIndex);
    rankDown(*g, position);
}

void DpGroupCoordinator::rankExited(int engineIndex, quint64 serial)
{
    int position = -1;
    Group *g = groupFor(engineIndex, &position);
    if (!g || !g->group->coupled || position < 0 || serial != g->serials.at(position))
        return; // not this process of the rank: it was started again since
    rankDown(*g, position);
}

void DpGroupCoordinator::rankDown(Group &g, int position)
{
    const RankState was = g.ranks.at(position);
    if (was == RankState::Down)
        return;
    g.ranks[position] = RankState::Down;
    if (was == RankState::Member) {
        // The survivors block in their next collective: no step ends until the watchdog takes them down.
        g.deadRank = g.group->dpRanks.value(position);
        for (qsizetype i = 0; i < g.ranks.size(); ++i) {
            if (g.ranks.at(i) == RankState::Member) {
                g.ranks[i] = RankState::Frozen;
                m_actions.block(g.group->engines.at(i), true);
            }
        }
        if (!g.watchdogTimer.isActive() && g.count(RankState::Frozen) > 0)
            g.watchdogTimer.start(realMs(g.timing.watchdogTimeoutSeconds));
    }
    if (g.count(RankState::Frozen) == 0)
        g.watchdogTimer.stop();
    if (g.count(RankState::Joining) == 0)
        g.joinTimer.stop();
    update(g);
}

void DpGroupCoordinator::form(Group &g)
{
    g.joinTimer.stop();
    g.deadRank = -1;
    for (qsizetype i = 0; i < g.ranks.size(); ++i) {
        g.ranks[i] = RankState::Member;
        m_actions.formed(g.group->engines.at(i));
    }
}

void DpGroupCoordinator::joinTimedOut(Group &g)
{
    const int joined = g.count(RankState::Joining);
    for (qsizetype i = 0; i < g.ranks.size(); ++i) {
        if (g.ranks.at(i) != RankState::Joining)
            continue;
        g.ranks[i] = RankState::Down;
        m_actions.exitJoinTimeout(g.group->engines.at(i), int(std::lround(g.timing.joinTimeoutSeconds)), joined,
            g.group->size(), QStringLiteral("%1:%2").arg(g.group->masterAddress).arg(g.group->masterPort));
    }
    g.lastExit = QStringLiteral("join-timeout");
    update(g);
}

void DpGroupCoordinator::watchdogFired(Group &g)
{
    for (qsizetype i = 0; i < g.ranks.size(); ++i) {
        if (g.ranks.at(i) != RankState::Frozen)
            continue;
        g.ranks[i] = RankState::Down;
        m_actions.exitWatchdog(g.group->engines.at(i), int(std::lround(g.timing.watchdogTimeoutSeconds)), g.deadRank);
    }
    g.lastExit = QStringLiteral("watchdog");
    update(g);
}

void DpGroupCoordinator::update(Group &g)
{
    GroupState s;
    if (g.count(RankState::Frozen) > 0)
        s = GroupState::Broken;
    else if (g.count(RankState::Member) == g.ranks.size())
        s = GroupState::Serving;
    else if (g.count(RankState::Joining) > 0)
        s = GroupState::Joining;
    else if (g.count(RankState::Down) == g.ranks.size())
        s = g.lastExit.isEmpty() ? GroupState::Stopped : GroupState::Failed;
    else
        s = GroupState::Broken; // members and dead ranks without survivors cannot happen; be safe
    if (s == g.state)
        return;
    g.state = s;
    g.sinceMs = QDateTime::currentMSecsSinceEpoch();
    Q_EMIT groupChanged(g.group->id, groupStateName(s));
}

QList<DpGroupCoordinator::GroupView> DpGroupCoordinator::groups() const
{
    QList<GroupView> out;
    for (const auto &g : m_groups)
        out.append({g->group, g->state, g->ranks, g->sinceMs, g->lastExit});
    return out;
}

QString DpGroupCoordinator::groupStateName(GroupState state)
{
    switch (state) {
    case GroupState::Independent: return QStringLiteral("independent");
    case GroupState::Stopped: return QStringLiteral("stopped");
    case GroupState::Joining: return QStringLiteral("joining");
    case GroupState::Serving: return QStringLiteral("serving");
    case GroupState::Broken: return QStringLiteral("broken");
    case GroupState::Failed: return QStringLiteral("failed");
    }
    return QStringLiteral("unknown");
}

QString DpGroupCoordinator::rankStateName(RankState state)
{
    switch (state) {
    case RankState::Down: return QStringLiteral("down");
    case RankState::Joining: return QStringLiteral("joining");
    case RankState::Member: return QStringLiteral("member");
    case RankState::Frozen: return QStringLiteral("frozen");
    }
    return QStringLiteral("unknown");
}

} // namespace pd::sim
