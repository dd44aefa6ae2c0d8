// SPDX-License-Identifier: MIT
#pragma once

// The one place that feeds the topology its engine states: the derived-state tracker (core/state), the
// only deriver of states. Until one is attached the topology shows the profile with every engine Unknown.
namespace pd {

class EngineInfoProvider;
class StateTracker;
class TopologyView;

// States from the tracker (all of them now and on reset, the changed engines per round), tooltips and
// metric colours from `info`, metrics refreshed after every derived round.
void feedTopologyFromTracker(StateTracker *tracker, const EngineInfoProvider *info, TopologyView *view);

} // namespace pd
