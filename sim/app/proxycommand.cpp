// SPDX-License-Identifier: MIT
#include "commands.h"

#include <QTextStream>

int pd::sim::runProxyCommand(const QStringList &)
{
    QTextStream(stderr) << "pdsim proxy: not built yet\n";
    return 2;
}
