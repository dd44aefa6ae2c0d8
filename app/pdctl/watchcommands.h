// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pd {
class RunnerFactory;
}

namespace pdctl {

// `pdctl problems`: a few poll rounds, the ranked problems the console would show; exit 0 none,
// 1 warnings only, 2 an error or critical problem, 3 when the cluster could not be checked.
int runProblemsCommand(const QStringList &args, QTextStream &out, QTextStream &err);
// `pdctl watch`: polls until stopped (or --duration), one line per problem transition, optional
// webhook, auto-eject and auto-heal (docs/watchdog.md); `runners` start and stop engines for auto-heal.
int runWatchCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);

} // namespace pdctl
