// SPDX-License-Identifier: MIT
#include "commands.h"

#include <QTextStream>

int pd::sim::runEngineCommand(const QStringList &)
{
    QTextStream(stderr) << "pdsim engine: not built yet\n";
    return 2;
}
