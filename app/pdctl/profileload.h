// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QString>
#include <QTextStream>

#include <optional>

namespace pdctl {

// The profile at `path` for the verbs that act on a cluster; nullopt after each of its load errors
// went to `err` as "PATH: message".
std::optional<pd::Profile> loadProfileOrReport(const QString &path, QTextStream &err);

} // namespace pdctl
