// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QList>
#include <QString>

// Finds the mistakes that break real PD clusters before anything is launched: unsafe field values
// (they reach remote shells), DP groups with gaps or overlaps, port clashes on one host, master
// addresses outside their group, kv_role against the pool, NPU over-subscription, duplicate nodes,
// empty pools, and proxy instance lists that disagree with the engines.
namespace pd {

enum class Severity { Error, Warning };

struct ValidationIssue {
    Severity severity = Severity::Error;
    QString pointer;  // JSON pointer into the profile's file form
    QString message;  // a sentence an operator understands
};

QList<ValidationIssue> validateProfile(const Profile &profile);
bool hasErrors(const QList<ValidationIssue> &issues);

} // namespace pd
