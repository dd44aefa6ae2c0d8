// SPDX-License-Identifier: MIT
#include "nodecommands.h"
#include "opscommands.h"
#include "profilecommands.h"
#include "repaircommand.h"
#include "scalecommands.h"
#include "warmupcommand.h"
#include "watchcommands.h"

#include "cluster/profileformat.h"
#include "exec/runnerfactory.h"
#include "ssh/sshprompts.h"
#include "ssh/sshrunner.h"

#include <QCoreApplication>
#include <QTextStream>

namespace {

const char *const kUsage
    = "usage: pdctl COMMAND ...\n"
      "\n"
      "  profile validate FILE         check a cluster profile; exit 1 when it has errors\n"
      "  profile show FILE [--json]    nodes and engines of a profile\n"
      "  profile import [--proxy-args '...'] [--launcher 'HOST[/ROLE]: ...']... [--ranktable FILE]\n"
      "                 [--start-script [HOST:]FILE]... [--container docker|podman:NAME]\n"
      "                 [--env-script FILE]...\n"
      "                 [--proxy-generation v0.9.1-dev|main] [--name NAME] [-o FILE]\n"
      "                                build a profile from the proxy command line, launcher\n"
      "                                parameters, ranktable.json and the engines' own start\n"
      "                                scripts (HOST:FILE is read on HOST over SSH; the role comes\n"
      "                                from kv_role); --container and --env-script apply to both\n"
      "                                roles\n"
      "  profile format FILE [-o FILE] rewrite a profile in canonical form\n"
      "\n"
      "  engine start|stop|restart|status --profile FILE [--node NAME]... [--pool ROLE] [--engine ID]...\n"
      "                 [--parallel N] [--grace S] [--verify S] [--audit FILE]\n"
      "                                start, stop or find engines as the launcher would run them;\n"
      "                                audited, with the operator's intent for consoles watching\n"
      "  proxy start|stop|status --profile FILE [--engine-load-seconds S] [--print]\n"
      "                                the proxy, its command line generated from the profile\n"
      "  script show|diff|upload --profile FILE [--node NAME]... [--yes]\n"
      "                                run_dp_template.sh generated from the profile\n"
      "  node check --profile FILE [--node NAME]... [--csv FILE] [--json FILE] [--timeout S] [--no-ping]\n"
      "             [--tool-dir DIR] [--hccn-conf PATH]\n"
      "                                the A2/A3 NPU network verification suite on every node\n"
      "  status --profile FILE [--json] the proxy and every engine: membership, serving\n"
      "  scale --profile FILE --pool decode|prefill --to N [--yes] [--override-last-instance]\n"
      "        [--sim-control HOST:PORT] [--audit FILE] [--parallel N] [--idle-timeout S]\n"
      "        [--allow-in-flight] [--allow-proxy-restart] [--drain-wait S]\n"
      "                                plan, confirm and run a pool resize through the proxy;\n"
      "                                engines start and stop through each node's runner (SSH or\n"
      "                                local), or pdsim's control API with --sim-control. A proxy\n"
      "                                without /instances (v0.9.1-dev) is restarted with the new\n"
      "                                lists once nothing is in flight (--allow-in-flight: now).\n"
      "                                Engines a busy proxy still drains come back through a proxy\n"
      "                                restart with its current lists (--allow-proxy-restart)\n"
      "  repair --profile FILE [--finish ID | --undo ID | --forget ID] [--yes] [--sim-control HOST:PORT]\n"
      "         [--audit FILE] [--allow-proxy-restart] [--drain-wait S] [--idle-timeout S]\n"
      "                                operations a killed console or pdctl left cut short, what they\n"
      "                                left, and their repair: finish (run again) or undo; exit 1 when\n"
      "                                any is listed\n"
      "  audit [--file FILE] [--json]  print the audit log of mutating actions\n"
      "  problems --profile FILE [--json] [--rounds N] [--interval S] [--timeout S]\n"
      "                                poll a few rounds and print the ranked problems the console\n"
      "                                would show; exit 0 none, 1 warnings only, 2 errors, 3 when\n"
      "                                the cluster could not be checked (for cron and monitoring)\n"
      "  watch --profile FILE [--json-lines] [--webhook URL] [--auto-eject] [--eject-after K]\n"
      "        [--readd-after K] [--no-readd] [--max-ejections M] [--eject-window S] [--audit FILE]\n"
      "        [--interval S] [--duration S] [--auto-heal [--heals-per-hour N] [--sim-control HOST:PORT]]\n"
      "                                poll like the console until stopped; print each problem as it\n"
      "                                appears and clears, post it to the webhook; --auto-eject removes\n"
      "                                from the proxy an instance bad for K polls (never the last of a\n"
      "                                pool, a WAITING one, or one rank of a coupled group; at most M\n"
      "                                per window; audited) and re-adds it once it serves again;\n"
      "                                --auto-heal also restarts a broken coupled DP group as one group\n"
      "                                and brings it back (one at a time, N per hour, audited)\n"
      "  warmup --profile FILE [-n N] [--concurrency C] [--prompt-tokens P] [--max-tokens T]\n"
      "         [--no-stream] [--model NAME] [--timeout S] [--audit FILE] [--csv FILE] [--json]\n"
      "                                N small completions through the proxy: success rate,\n"
      "                                TTFT/TPOT percentiles; exit 1 when any request failed\n"
      "\n"
      "  --accept-new-host-key         trust a node's SSH host key seen for the first time\n"
      "                                (a changed key is always refused)\n"
      "  --known-hosts FILE            the known_hosts file to check and extend (default\n"
      "                                ~/.ssh/known_hosts; /etc/ssh/ssh_known_hosts is read too)\n"
      "  --ssh-config FILE|none        the ssh config to read (default ~/.ssh/config)\n"
      "  --version, --help\n";

void printUsage(QTextStream &out)
{
    out << kUsage;
}

// `pdctl VERB [SUB] --help`: the usage entries of that verb (and sub-verb) from the overview, then the
// SSH options every verb takes. Exit 0, on stdout, like the overview.
bool printVerbUsage(const QString &verb, const QString &sub, QTextStream &out)
{
    const QStringList lines = QString::fromUtf8(kUsage).split(QLatin1Char('\n'));
    QStringList picked;
    bool inEntry = false;
    for (const QString &line : lines) {
        const bool entryStart = line.startsWith(QLatin1String("  ")) && !line.startsWith(QLatin1String("   "));
        if (entryStart) {
            const QStringList words = line.simplified().split(QLatin1Char(' '));
            const bool verbMatches = words.value(0) == verb;
            const QString second = words.value(1);
            // "engine start|stop|...": a sub-verb matches one of the alternatives; none given matches all.
            const bool subMatches = sub.isEmpty() || sub.startsWith(QLatin1Char('-'))
                                    || second.split(QLatin1Char('|')).contains(sub) || second.startsWith(QLatin1Char('-'))
                                    || second.startsWith(QLatin1Char('['));
            inEntry = verbMatches && subMatches;
        } else if (!line.startsWith(QLatin1String("   "))) {
            inEntry = false;
        }
        if (inEntry)
            picked << line;
    }
    if (picked.isEmpty())
        return false;
    out << "usage:\n" << picked.join(QLatin1Char('\n')) << "\n\n"
        << "  --accept-new-host-key, --known-hosts FILE, --ssh-config FILE|none   SSH host keys and config\n"
        << "  (pdctl --help lists every command)\n";
    return true;
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
    if (args.contains(QLatin1String("--help")) || args.contains(QLatin1String("-h"))) {
        const QString sub = args.value(1);
        if (printVerbUsage(command, sub == QLatin1String("--help") || sub == QLatin1String("-h") ? QString() : sub, out))
            return 0;
        err << "pdctl: unknown command \"" << command << "\"\n";
        printUsage(err);
        return 2;
    }
    if (command == QLatin1String("warmup"))
        return pdctl::runWarmUpCommand(args.mid(1), out, err);
    if (command == QLatin1String("problems"))
        return pdctl::runProblemsCommand(args.mid(1), out, err);
    // Nodes on this machine go to the local runner, the others over SSH (host keys checked against
    // known_hosts; a new key is trusted only with --accept-new-host-key, a changed one never).
    pd::DefaultRunnerFactory runners;
    const bool acceptNewHostKeys = args.removeAll(QStringLiteral("--accept-new-host-key")) > 0;
    pd::SshSettings sshSettings;
    for (const auto &[option, field] : {std::pair{QStringLiteral("--known-hosts"), &sshSettings.knownHostsPath},
                                        std::pair{QStringLiteral("--ssh-config"), &sshSettings.configPath}}) {
        const qsizetype at = args.indexOf(option);
        if (at < 0)
            continue;
        if (at + 1 >= args.size() || args.at(at + 1).isEmpty()) {
            err << "pdctl: " << option << " needs a value\n";
            return 2;
        }
        *field = args.at(at + 1);
        args.remove(at, 2);
    }
    auto ssh = std::make_shared<pd::SshRunner>(
        sshSettings, std::make_shared<pd::FixedSshPrompts>(acceptNewHostKeys ? pd::FixedSshPrompts::NewHostKeys::Accept
                                                                                  : pd::FixedSshPrompts::NewHostKeys::Refuse));
    const qsizetype profileAt = args.indexOf(QStringLiteral("--profile"));
    if (profileAt >= 0 && profileAt + 1 < args.size()) {
        const pd::ProfileLoadResult loaded = pd::loadProfileFile(args.at(profileAt + 1));
        if (loaded.profile)
            ssh->registerProfile(*loaded.profile); // identity files and jump hosts per node
    }
    runners.setRemoteRunner(ssh);
    if (command == QLatin1String("profile"))
        return pdctl::runProfileCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("engine"))
        return pdctl::runEngineCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("proxy"))
        return pdctl::runProxyCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("node"))
        return pdctl::runNodeCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("script"))
        return pdctl::runScriptCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("watch"))
        return pdctl::runWatchCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("status"))
        return pdctl::runStatusCommand(args.mid(1), out, err);
    if (command == QLatin1String("scale"))
        return pdctl::runScaleCommand(args.mid(1), runners, out, err);
    if (command == QLatin1String("audit"))
        return pdctl::runAuditCommand(args.mid(1), out, err);
    if (command == QLatin1String("repair"))
        return pdctl::runRepairCommand(args.mid(1), runners, out, err);
    printUsage(err);
    return 2;
}
