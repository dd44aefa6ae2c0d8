// SPDX-License-Identifier: MIT
#include "topologyview/topologystatefeed.h"

#include "state/statetracker.h"
#include "topologyview/topologyview.h"

namespace pd {

void feedTopologyFromTracker(StateTracker *tracker, const EngineInfoProvider *info, TopologyView *view)
{
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
