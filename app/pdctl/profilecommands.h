// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pd {
class RunnerFactory;
}

namespace pdctl {

// `pdctl profile validate|show|import|format ...`; returns the exit status. `import --start-script
// HOST:FILE` reads the file on HOST through `runners` (SSH, or local for this machine).
int runProfileCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);

} // namespace pdctl
