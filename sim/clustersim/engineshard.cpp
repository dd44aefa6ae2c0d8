// SPDX-License-Identifier: MIT
#include "clustersim/engineshard.h"

#include "engine/enginescheduler.h"

namespace pd::sim {

EngineShard::EngineShard(const QList<EngineOptions> &options, const QList<int> &indexes)
    : m_options(options)
    , m_indexes(indexes)
{
}

EngineShard::~EngineShard()
{
    qDeleteAll(m_engines); // engines unregister from the scheduler before it goes
    m_engines.clear();
    delete m_scheduler;
}

void EngineShard::ensureEngines()
{
    if (!m_engines.isEmpty())
        return;
    m_scheduler = new EngineScheduler();
    for (qsizetype i = 0; i < m_options.size(); ++i) {
        auto *engine = new SimEngine(m_options.at(i), m_scheduler);
        const int index = m_indexes.at(i);
        connect(engine, &SimEngine::ready, this, [this, index] { Q_EMIT engineReady(index); });
        const int slot = int(i);
        connect(engine, &SimEngine::failed, this, [this, index, slot, engine](const QString &reason) {
            Q_EMIT engineFailed(index, reason);
            if (engine->status() == SimEngine::Status::Stopped)
                Q_EMIT engineExited(index, m_serials.at(slot));
        });
        connect(engine, &SimEngine::stopped, this, [this, index] { Q_EMIT engineStopped(index); });
        connect(engine, &SimEngine::crashed, this, [this, index, slot] {
            Q_EMIT engineStopped(index);
            Q_EMIT engineExited(index, m_serials.at(slot));
        });
        m_engines.append(engine);
        m_serials.append(0);
    }
}

SimEngine *EngineShard::engineFor(int index) const
{
    const qsizetype i = m_indexes.indexOf(index);
    return i < 0 || i >= m_engines.size() ? nullptr : m_engines.at(i);
}

void EngineShard::startAll()
{
    ensureEngines();
    for (SimEngine *engine : std::as_const(m_engines))
        engine->start();
}

void EngineShard::stopAll()
{
    for (SimEngine *engine : std::as_const(m_engines))
        engine->stop();
}

bool EngineShard::start(int index)
{
    ensureEngines();
    SimEngine *engine = engineFor(index);
    return engine && engine->start();
}

bool EngineShard::startGated(int index, quint64 serial)
{
    ensureEngines();
    const qsizetype i = m_indexes.indexOf(index);
    SimEngine *engine = engineFor(index);
    if (!engine)
        return false;
    engine->stop(); // a frozen survivor is killed before its rank starts again
    m_serials[i] = serial;
    engine->setGroupGated(true);
    return engine->start();
}

bool EngineShard::groupFormed(int index)
{
    SimEngine *engine = engineFor(index);
    if (engine)
        engine->groupFormed();
    return engine != nullptr;
}

bool EngineShard::setGroupBlocked(int index, bool blocked)
{
    SimEngine *engine = engineFor(index);
    if (engine)
        engine->setGroupBlocked(blocked);
    return engine != nullptr;
}

bool EngineShard::exitJoinTimeout(int index, int timeoutSeconds, int joined, int size, const QString &master)
{
    SimEngine *engine = engineFor(index);
    if (engine)
        engine->exitJoinTimeout(timeoutSeconds, joined, size, master);
    return engine != nullptr;
}

bool EngineShard::exitWatchdog(int index, int timeoutSeconds, int deadRank)
{
    SimEngine *engine = engineFor(index);
    if (engine)
        engine->exitWatchdog(timeoutSeconds, deadRank);
    return engine != nullptr;
}

bool EngineShard::stop(int index)
{
    SimEngine *engine = engineFor(index);
    if (!engine)
        return false;
    engine->stop();
    return true;
}

bool EngineShard::setFault(int index, FaultKind kind, int ms)
{
    SimEngine *engine = engineFor(index);
    if (!engine)
        return false;
    engine->setFault(kind, ms);
    return true;
}

QList<EngineSnapshot> EngineShard::snapshot() const
{
    QList<EngineSnapshot> list;
    for (qsizetype i = 0; i < m_engines.size(); ++i)
        list.append({m_indexes.at(i), m_engines.at(i)->status(), m_engines.at(i)->state()});
    return list;
}

} // namespace pd::sim
