// SPDX-License-Identifier: MIT
#pragma once
// What the scale panel tests share: the panel shown at 1100x520 with its confirmation answered yes (no
// override) and the plan it showed kept, and the membership table polling the proxy every 500 ms.
#include "net/membershipreconciler.h"
#include "scale/scalepanel.h"

#include <optional>

namespace pd::test {

inline void showConfirmingPanel(ScalePanel &panel, MembershipReconciler &table, std::optional<ScalePlan> *shown)
{
    panel.setConfirm([shown](const ScalePlan &plan, bool *override) {
        *shown = plan;
        *override = false;
        return true;
    });
    panel.resize(1100, 520);
    panel.show();
    table.start(500);
}

} // namespace pd::test
