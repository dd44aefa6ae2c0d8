// SPDX-License-Identifier: MIT
#include "topology/topologystatefeed.h"

#include "topology/observedstates.h"
#include "topology/topologyview.h"

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

} // namespace pd
