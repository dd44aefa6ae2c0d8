// SPDX-License-Identifier: MIT
#include "commands.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pdsim"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PDCONSOLE_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    const QString command = args.value(0);
    if (command == QLatin1String("engine"))
        return pd::sim::runEngineCommand(args);
    if (command == QLatin1String("proxy"))
        return pd::sim::runProxyCommand(args);
    if (command == QLatin1String("cluster"))
        return pd::sim::runClusterCommand(args);
    QTextStream err(stderr);
    if (command == QLatin1String("--version")) {
        QTextStream(stdout) << "pdsim " << PDCONSOLE_VERSION << '\n';
        return 0;
    }
    err << "usage: pdsim engine|proxy|cluster [options]   (pdsim COMMAND --help for each)\n";
    return command == QLatin1String("--help") || command == QLatin1String("-h") ? 0 : 2;
}
