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
        connect(engine, &SimEngine::failed, this, [this, index](const QString &reason) { Q_EMIT engineFailed(index, reason); });
        connect(engine, &SimEngine::stopped, this, [this, index] { Q_EMIT engineStopped(index); });
        connect(engine, &SimEngine::crashed, this, [this, index] { Q_EMIT engineStopped(index); });
        m_engines.append(engine);
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
