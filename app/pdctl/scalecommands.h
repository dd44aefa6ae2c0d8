// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pd {
class RunnerFactory;
}

namespace pdctl {

// `pdctl status --profile F [--json]`: the proxy (generation, counts, in flight) and every engine of
// the profile with its proxy membership and whether it serves.
int runStatusCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// `pdctl scale --profile F --pool decode|prefill --to N [--yes] [--override-last-instance]
//  [--sim-control HOST:PORT] [--audit FILE]`: plan, confirm, run, print each step.
int runScaleCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);

// `pdctl audit [--file F] [--json]`: the audit log.
int runAuditCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace pdctl
