// SPDX-License-Identifier: MIT
#include "topologyview/topologystatefeed.h"

#include "state/statetracker.h"
#include "topology/observedstates.h"
#include "topologyview/topologyview.h"

namespace pd {

void feedTopologyFromObservations(ObservedStates *source, TopologyView *view)
{
    view->setInfoProvider(source);
    QObject::connect(source, &ObservedStates::statesReset, view, &TopologyView::setStates);
    QObject::connect(source, &ObservedStates::statesChanged, view, [source, view](const QList<int> &engines) {
        for (int engine : engines)
            view->setState(engine, source->states().at(engine));
    });
    QObject::connect(source, &ObservedStates::roundObserved, view, &TopologyView::refreshMetrics);
    view->setStates(source->states());
}

void feedTopologyFromTracker(
    ObservedStates *previous, StateTracker *tracker, const EngineInfoProvider *info, TopologyView *view)
{
    if (previous)
        QObject::disconnect(previous, nullptr, view, nullptr);
    view->setInfoProvider(info);
    auto all = [tracker] {
        QVector<EngineState> states(tracker->engineCount());
        for (int i = 0; i < tracker->engineCount(); ++i)
            states[i] = tracker->state(i);
        return states;
    };
    QObject::connect(tracker, &StateTracker::reset, view, [view, all] { view->setStates(all()); });
    QObject::connect(tracker, &StateTracker::statesChanged, view, [tracker, view](const QList<int> &engines) {
        for (int engine : engines)
            view->setState(engine, tracker->state(engine));
    });
    QObject::connect(tracker, &StateTracker::roundDerived, view, &TopologyView::refreshMetrics);
    view->setStates(all());
}

} // namespace pd
