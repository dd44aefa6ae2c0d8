// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace pd {

// The auto-eject policy's knobs (ejectionpolicy.h; the console's settings and pdctl watch's options).
struct EjectionSettings {
    bool enabled = false;
    int badPolls = 3;
    int readdPolls = 3;
    bool readd = true;
    int maxEjections = 2;
    std::int64_t windowMs = 10 * 60 * 1000;
    // Auto-heal (autoheal.h): a broken coupled DP group restarted as one group and brought back; needs
    // `enabled` (the group is ejected first).
    bool autoHeal = false;
    int healsPerHour = 2;
};

} // namespace pd
