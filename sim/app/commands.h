// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

// Each `pdsim` sub-command parses its own arguments (the first is the sub-command name) and runs its
// event loop; the return value is the process exit status.
namespace pd::sim {
int runEngineCommand(const QStringList &arguments);
int runProxyCommand(const QStringList &arguments);
int runClusterCommand(const QStringList &arguments);
} // namespace pd::sim
