// SPDX-License-Identifier: MIT
#pragma once

#include "exec/shellarg.h"

#include <QByteArray>
#include <QString>

// A shell command run inside a node's container (the two-node A2 guide's privileged Docker container, where CANN,
// npu-smi and the engines live): `<tool> exec -i <name> bash -c '<command>'`. An empty name runs the
// command as is, on the host.
namespace pd {

inline QByteArray inContainer(const QString &tool, const QString &name, const QByteArray &command)
{
    if (name.isEmpty() || command.isEmpty())
        return command;
    return shellArg(tool) + " exec -i " + shellArg(name) + " bash -c " + shellArg(command);
}

} // namespace pd
