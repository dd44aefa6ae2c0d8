// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pd {
class RunnerFactory;
}

namespace pdctl {

// `pdctl repair --profile F [--finish ID | --undo ID | --forget ID] [--yes] [--sim-control HOST:PORT]
//  [--audit FILE] [--allow-proxy-restart] [--drain-wait S] [--idle-timeout S]`: the operations a
// killed console or pdctl left cut short (the operations journal), what they left, and their repair.
// Without an action: the list, exit 0 when there is none, 1 otherwise.
int runRepairCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err);

} // namespace pdctl
