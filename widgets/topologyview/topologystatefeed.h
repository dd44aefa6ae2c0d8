// SPDX-License-Identifier: MIT
#pragma once

// The one place that feeds the topology its engine states. ObservedStates (HTTP observations only)
// feeds it until the derived-state tracker (core/state) is attached; the tracker then replaces it with
// the same three connections: a full set of states on reset, changed engines per round, the info provider.
namespace pd {

class EngineInfoProvider;
class ObservedStates;
class StateTracker;
class TopologyView;

void feedTopologyFromObservations(ObservedStates *source, TopologyView *view);
// Replaces the observation feed: states from the derived-state tracker (reset, changed engines per
// round), tooltips and metric colours from `info`, metrics refreshed after every derived round.
void feedTopologyFromTracker(
    ObservedStates *previous, StateTracker *tracker, const EngineInfoProvider *info, TopologyView *view);

} // namespace pd
