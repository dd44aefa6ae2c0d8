// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pd {
class RunnerFactory;
}

namespace pdctl {

// `pdctl node check --profile FILE [--node NAME]... [--csv FILE] [--json FILE] [--timeout S]`: the
// seeds' A2/A3 verification suite on every node (or those named) in parallel, through the node's runner;
// one line per node, then every warning and failure with its device and reason. Exit 0 when nothing
// failed, 1 when a check failed or a node was unreachable, 2 for usage.
int runNodeCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);

} // namespace pdctl
