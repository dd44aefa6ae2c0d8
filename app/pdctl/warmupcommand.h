// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pdctl {

// `pdctl warmup --profile F [-n N] [--concurrency C] [--prompt-tokens P] [--max-tokens T] [--no-stream]
//  [--model M] [--timeout S] [--audit FILE] [--csv FILE] [--json]`: N small completions through the
// profile's proxy, the outcome and latency tables; exit 0 when every request succeeded, 1 when any
// failed (or none could be sent), 2 on bad arguments.
int runWarmUpCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace pdctl
