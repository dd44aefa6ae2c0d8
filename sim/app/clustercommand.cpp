// SPDX-License-Identifier: MIT
#include "commands.h"

#include <QTextStream>

int pd::sim::runClusterCommand(const QStringList &)
{
    QTextStream(stderr) << "pdsim cluster: not built yet\n";
    return 2;
}
