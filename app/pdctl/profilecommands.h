// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace pdctl {

// `pdctl profile validate|show|import|format ...`; returns the exit status.
int runProfileCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace pdctl
