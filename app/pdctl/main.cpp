// SPDX-License-Identifier: MIT
#include "profilecommands.h"
#include "scalecommands.h"

#include <QCoreApplication>
#include <QTextStream>

namespace {

void printUsage(QTextStream &out)
{
    out << "usage: pdctl COMMAND ...\n"
           "\n"
           "  profile validate FILE         check a cluster profile; exit 1 when it has errors\n"
           "  profile show FILE [--json]    nodes and engines of a profile\n"
           "  profile import [--proxy-args '...'] [--launcher 'HOST[/ROLE]: ...']... [--ranktable FILE]\n"
           "                 [--name NAME] [-o FILE]\n"
           "                                build a profile from the proxy command line, launcher\n"
           "                                parameters and ranktable.json\n"
           "  profile format FILE [-o FILE] rewrite a profile in canonical form\n"
           "\n"
           "  status --profile FILE [--json] the proxy and every engine: membership, serving\n"
           "  scale --profile FILE --pool decode|prefill --to N [--yes] [--override-last-instance]\n"
           "        [--sim-control HOST:PORT] [--audit FILE] [--parallel N]\n"
           "                                plan, confirm and run a pool resize through the proxy\n"
           "  audit [--file FILE] [--json]  print the audit log of mutating actions\n"
           "\n"
           "  --version, --help\n";
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pdctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PDCONSOLE_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QString command = args.value(0);
    if (command == QLatin1String("--version")) {
        out << "pdctl " << PDCONSOLE_VERSION << '\n';
        return 0;
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        printUsage(out);
        return 0;
    }
    if (command == QLatin1String("profile"))
        return pdctl::runProfileCommand(args.mid(1), out, err);
    if (command == QLatin1String("status"))
        return pdctl::runStatusCommand(args.mid(1), out, err);
    if (command == QLatin1String("scale"))
        return pdctl::runScaleCommand(args.mid(1), out, err);
    if (command == QLatin1String("audit"))
        return pdctl::runAuditCommand(args.mid(1), out, err);
    printUsage(err);
    return 2;
}
