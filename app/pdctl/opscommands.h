// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pd {
class RunnerFactory;
}

namespace pdctl {

// `pdctl engine start|stop|restart|status ...`, `pdctl proxy start|stop|status ...`,
// `pdctl script show|diff|upload ...`; each returns the exit status (0 all ok, 1 something failed,
// 2 usage). `runners` reaches the nodes (local runner for this machine, SSH for the others).
int runEngineCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);
int runProxyCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);
int runScriptCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);

} // namespace pdctl
