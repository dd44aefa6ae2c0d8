// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QString>

#include <nlohmann/json.hpp>

// Read-only views of a profile for scripts and terminals (`pdctl profile show`).
namespace pd {

// {"name": …, "nodes": [...], "engines": [{"node", "role", "host", "port", "dp_rank", …}], "proxy": {…}}
nlohmann::ordered_json profileSummaryJson(const Profile &profile);
// One line per engine, aligned columns, then the proxy.
QString profileSummaryTable(const Profile &profile);

} // namespace pd
