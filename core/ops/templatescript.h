// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QByteArray>
#include <QStringList>

// run_dp_template.sh generated from the profile, per node (its role's `vllm serve` arguments and
// environment, its NIC and IP) in the profile's launch flavor: the v0.9.1 layout exports the
// VLLM_DP_* variables from the seven arguments (spec proxy-api §9.2), the main layout passes them as
// --data-parallel-* flags (§9.1). kv_transfer_config carries the kv_role of the node's pool.
namespace pd {

struct GeneratedScript {
    QByteArray text; // empty when error is set
    QStringList notes; // what the generator decided for the operator (a corrected kv_role, a missing NIC)
    QString error; // why no script could be generated, naming the node and field
};

GeneratedScript generateTemplateScript(const Profile &profile, const Node &node);

} // namespace pd
