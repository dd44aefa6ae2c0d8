// SPDX-License-Identifier: MIT
#include "opscommands.h"
#include "verbparser.h"
#include "audit/auditintent.h"

#include "cluster/profileformat.h"
#include "cluster/profilevalidator.h"
#include "ops/enginecontroller.h"
#include "ops/launchspec.h"
#include "ops/scriptdeploy.h"
#include "ops/templatescript.h"

#include <QCommandLineParser>
#include <QHash>

#include <algorithm>
#include <QEventLoop>
#include <QFile>

#include <cstdio>
#include <memory>
#include <optional>
#include <unistd.h>

namespace pdctl {

namespace {


// Borrowed factory: the controller shares ownership of what it is given; pdctl's outlives it.
std::shared_ptr<pd::RunnerFactory> borrow(pd::RunnerFactory &runners)
{
    return std::shared_ptr<pd::RunnerFactory>(&runners, [](pd::RunnerFactory *) {});
}

std::optional<pd::Profile> loadChecked(const QString &path, QTextStream &err)
{
    if (path.isEmpty()) {
        err << "pdctl: --profile FILE is required\n";
        return std::nullopt;
    }
    const pd::ProfileLoadResult loaded = pd::loadProfileFile(path);
    for (const pd::ProfileError &error : loaded.errors)
        err << error.format(path) << '\n';
    if (!loaded.profile)
        return std::nullopt;
    // Values reach remote shells: never act on a profile with errors.
    const QList<pd::ValidationIssue> issues = pd::validateProfile(*loaded.profile);
    if (pd::hasErrors(issues)) {
        for (const pd::ValidationIssue &issue : issues) {
            if (issue.severity == pd::Severity::Error)
                err << path << ": " << issue.pointer << ": " << issue.message << '\n';
        }
        err << "pdctl: the profile has errors; fix them first (pdctl profile validate " << path << ")\n";
        return std::nullopt;
    }
    return loaded.profile;
}

void addTimingOptions(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("profile"), QStringLiteral("Cluster profile."), QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("parallel"), QStringLiteral("Commands at once (default 8)."), QStringLiteral("N"),
        QStringLiteral("8") });
    parser.addOption({ QStringLiteral("grace"), QStringLiteral("Seconds between SIGTERM and SIGKILL (default 30)."),
        QStringLiteral("S"), QStringLiteral("30") });
    parser.addOption(
        { QStringLiteral("verify"), QStringLiteral("Seconds a started process must stay alive (default 2)."),
            QStringLiteral("S"), QStringLiteral("2") });
}

std::optional<pd::ControlTimings> timingsFrom(const QCommandLineParser &parser, QTextStream &err)
{
    pd::ControlTimings t;
    bool ok1 = false, ok2 = false;
    const double grace = parser.value(QStringLiteral("grace")).toDouble(&ok1);
    const double verify = parser.value(QStringLiteral("verify")).toDouble(&ok2);
    if (!ok1 || !ok2 || grace < 0 || grace > 3600 || verify < 0 || verify > 600) {
        err << "pdctl: --grace must be 0-3600 and --verify 0-600 seconds\n";
        return std::nullopt;
    }
    t.stopGrace = std::chrono::milliseconds(qint64(grace * 1000));
    t.verifyDelay = std::chrono::milliseconds(qint64(verify * 1000));
    return t;
}

const char *factName(pd::ProcessFact fact)
{
    switch (fact) {
    case pd::ProcessFact::Running:
        return "running";
    case pd::ProcessFact::Exited:
        return "stopped";
    case pd::ProcessFact::Unknown:
        break;
    }
    return "unknown";
}

// Runs one controller operation to its end, printing each outcome as it arrives.
pd::OperationSummary runOperation(pd::EngineController &controller, const std::function<int()> &start, QTextStream &out)
{
    pd::OperationSummary result;
    QEventLoop loop;
    int total = 0;
    int done = 0;
    QObject::connect(&controller, &pd::EngineController::progress, &loop, [&total](int, int, int t) { total = t; });
    QObject::connect(&controller, &pd::EngineController::processFinished, &loop,
        [&out, &done, &total](int, const pd::ProcessOutcome &o) {
            ++done;
            out << '[' << done << '/' << total << "] " << (o.ok ? "ok     " : "FAILED ") << o.label << ": "
                << (o.ok ? o.detail : o.error) << '\n';
            out.flush();
        });
    QObject::connect(&controller, &pd::EngineController::operationFinished, &loop,
        [&result, &loop](const pd::OperationSummary &summary) {
            result = summary;
            loop.quit();
        });
    start();
    loop.exec();
    return result;
}

} // namespace

int runEngineCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    addTimingOptions(parser);
    parser.addOption({ QStringLiteral("node"), QStringLiteral("Only the engines of this node (repeatable)."),
        QStringLiteral("NAME") });
    parser.addOption(
        { QStringLiteral("pool"), QStringLiteral("Only this pool: prefill or decode."), QStringLiteral("ROLE") });
    parser.addOption({ QStringLiteral("engine"),
        QStringLiteral("Only this engine, host:port or node:port (repeatable)."), QStringLiteral("ID") });
    parser.addOption({ QStringLiteral("audit"),
        QStringLiteral("The audit log (default: the one the console writes, ~/.local/share/pdconsole/audit.jsonl)."),
        QStringLiteral("FILE") });
    const auto usage = [&err, &parser](const QString &problem = {}) {
        return pdctl::printUsage(err, QStringLiteral("engine"), problem.isEmpty() ? parser.errorText() : problem,
            "usage: pdctl engine start|stop|restart|status --profile FILE [--node NAME]... [--pool ROLE]\n"
            "                   [--engine ID]... [--parallel N] [--grace S] [--verify S] [--audit FILE]\n");
    };
    if (!parser.parse(QStringList { QStringLiteral("pdctl") } + args) || parser.positionalArguments().size() != 1)
        return usage();
    const QString action = parser.positionalArguments().first();
    if (!QStringList {
            QStringLiteral("start"), QStringLiteral("stop"), QStringLiteral("restart"), QStringLiteral("status") }
             .contains(action))
        return usage(QStringLiteral("unknown action '%1' (start, stop, restart or status)").arg(action));
    if (!parser.isSet(QStringLiteral("profile")))
        return usage(QStringLiteral("--profile FILE is required"));
    const auto timings = timingsFrom(parser, err);
    if (!timings)
        return usage();
    const auto profile = loadChecked(parser.value(QStringLiteral("profile")), err);
    if (!profile)
        return 1;

    pd::EngineController controller(*profile, borrow(runners));
    controller.setTimings(*timings);
    controller.setMaxParallel(std::clamp(parser.value(QStringLiteral("parallel")).toInt(), 1, 256));

    // Selection: the intersection of the filters given; none = every engine.
    QList<pd::Engine> engines = controller.allEngines();
    const QStringList nodes = parser.values(QStringLiteral("node"));
    for (const QString &node : nodes) {
        if (controller.enginesOfNode(node).isEmpty()) {
            err << "pdctl engine: no node named '" << node << "' with engines in "
                << parser.value(QStringLiteral("profile")) << '\n';
            return 1;
        }
    }
    if (!nodes.isEmpty()) {
        engines.removeIf([&](const pd::Engine &e) { return !nodes.contains(profile->nodes.at(e.nodeIndex).name); });
    }
    if (parser.isSet(QStringLiteral("pool"))) {
        const QString pool = parser.value(QStringLiteral("pool"));
        if (pool != QLatin1String("prefill") && pool != QLatin1String("decode")) {
            err << "pdctl engine: --pool must be prefill or decode\n";
            return pdctl::kUsageExit;
        }
        engines.removeIf([&](const pd::Engine &e) { return pd::roleName(e.role) != pool; });
    }
    if (parser.isSet(QStringLiteral("engine"))) {
        QStringList unknown;
        const QList<pd::Engine> picked = controller.enginesById(parser.values(QStringLiteral("engine")), &unknown);
        if (!unknown.isEmpty()) {
            err << "pdctl engine: no such engine in the profile: " << unknown.join(QStringLiteral(", ")) << '\n';
            return 1;
        }
        engines.removeIf([&](const pd::Engine &e) {
            return std::none_of(picked.begin(), picked.end(), [&e](const pd::Engine &p) { return p.id() == e.id(); });
        });
    }
    if (engines.isEmpty()) {
        err << "pdctl engine: the selection names no engine\n";
        return 1;
    }

    // Start, stop and restart are audited like the console's actions, with the operator's intent: a
    // console watching the same audit log then reads these stops as stops, not as crashes.
    const bool mutating = action != QLatin1String("status");
    pd::AuditLog audit(parser.isSet(QStringLiteral("audit")) ? parser.value(QStringLiteral("audit")) : pd::AuditLog::defaultPath());
    const QString intentDetail = QStringLiteral("pdctl engine ") + action;
    const auto declare = [&](const pd::Engine &e, pd::OperatorIntent intent, QString *error) {
        return audit.append(pd::intentAuditEntry(e.role, e.id(), profile->nodes.at(e.nodeIndex).name, e.dpRank, intent,
                                                 intentDetail),
                            error);
    };
    if (mutating && action != QLatin1String("start")) {
        for (const pd::Engine &e : std::as_const(engines)) {
            QString error;
            if (!declare(e, pd::OperatorIntent::Stop, &error)) {
                err << "pdctl engine: " << error << "; nothing was done (an action the audit log cannot record is not taken)\n";
                return 1;
            }
        }
    }

    pd::OperationSummary summary;
    if (action == QLatin1String("status")) {
        summary = runOperation(
            controller, [&] { return controller.refreshEngines(engines); }, out);
    } else if (action == QLatin1String("start")) {
        summary = runOperation(
            controller, [&] { return controller.startEngines(engines); }, out);
    } else if (action == QLatin1String("stop")) {
        summary = runOperation(
            controller, [&] { return controller.stopEngines(engines); }, out);
    } else {
        summary = runOperation(
            controller, [&] { return controller.restartEngines(engines); }, out);
    }
    if (action == QLatin1String("status")) {
        out << "\nengine                 node         process  pid\n";
        for (const pd::Engine &e : std::as_const(engines)) {
            out << e.id().leftJustified(22) << ' ' << profile->nodes.at(e.nodeIndex).name.leftJustified(12) << ' '
                << QString::fromLatin1(factName(controller.processFact(e.id()))).leftJustified(8) << ' '
                << (controller.pid(e.id()) > 0 ? QString::number(controller.pid(e.id())) : QStringLiteral("-")) << '\n';
        }
    }
    bool audited = true;
    if (mutating) {
        QHash<QString, const pd::Engine *> selected; // one lookup per outcome, not a walk of the selection
        selected.reserve(engines.size());
        for (const pd::Engine &e : std::as_const(engines))
            selected.insert(e.id(), &e);
        for (const pd::ProcessOutcome &o : std::as_const(summary.outcomes)) {
            const pd::Engine *e = selected.value(o.id);
            if (!e)
                continue;
            QString error;
            audited = audit.append(pd::engineAuditEntry(QStringLiteral("engine.") + action, e->role, e->id(),
                                                        profile->nodes.at(e->nodeIndex).name, e->dpRank,
                                                        o.ok ? QStringLiteral("ok") : QStringLiteral("failed"),
                                                        o.ok ? o.detail : o.error),
                                   &error)
                && audited;
            // Running again (or still running after a failed stop): its silence from here on is news.
            const bool running = action == QLatin1String("stop") ? !o.ok : o.ok;
            if (running)
                audited = declare(*e, pd::OperatorIntent::None, &error) && audited;
            if (!error.isEmpty())
                err << "pdctl engine: " << error << '\n';
        }
        out << "audit log: " << audit.path() << '\n';
    }
    out << '\n' << summary.text();
    return summary.failed() == 0 && audited ? 0 : 1;
}

int runProxyCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    addTimingOptions(parser);
    parser.addOption({ QStringLiteral("engine-load-seconds"),
        QStringLiteral("How long engines may take to load; sizes --max-waiting-retries (default 900)."),
        QStringLiteral("S"), QStringLiteral("900") });
    parser.addOption({ QStringLiteral("print"), QStringLiteral("With start: print the command line and do nothing.") });
    if (!pdctl::parseAction(
            parser, args, { QStringLiteral("start"), QStringLiteral("stop"), QStringLiteral("status") })) {
        const QString problem = !parser.errorText().isEmpty() ? parser.errorText()
                                : parser.positionalArguments().size() == 1 && !parser.isSet(QStringLiteral("profile"))
                                    ? QStringLiteral("--profile FILE is required")
                                    : QString();
        return pdctl::printUsage(err, QStringLiteral("proxy"), problem,
            "usage: pdctl proxy start|stop|status --profile FILE [--engine-load-seconds S] [--print] [--grace S]\n");
    }
    const QString action = parser.positionalArguments().first();
    const auto timings = timingsFrom(parser, err);
    if (!timings) {
        err << "usage: pdctl proxy start|stop|status --profile FILE [--engine-load-seconds S] [--print] [--grace S]\n";
        return pdctl::kUsageExit;
    }
    const auto profile = loadChecked(parser.value(QStringLiteral("profile")), err);
    if (!profile)
        return 1;
    pd::ProxyLaunchOptions options;
    options.engineLoadSeconds = parser.value(QStringLiteral("engine-load-seconds")).toInt();
    if (parser.isSet(QStringLiteral("print"))) {
        QString error;
        const auto process = pd::proxyProcess(*profile, options, &error);
        if (!process) {
            err << "pdctl proxy: " << error << '\n';
            return 1;
        }
        out << "# on " << process->target.node << " (" << process->target.host << "), in " << process->runDir
            << ", log " << process->logFile << '\n';
        if (!process->apiKeyVariable.isEmpty())
            out << "OPENAI_API_KEY=\"${" << process->apiKeyVariable << "}\" ";
        out << process->program.join(QLatin1Char(' ')) << '\n';
        return 0;
    }
    pd::EngineController controller(*profile, borrow(runners));
    controller.setTimings(*timings);
    controller.setProxyLaunchOptions(options);
    pd::OperationSummary summary;
    if (action == QLatin1String("start"))
        summary = runOperation(
            controller, [&] { return controller.startProxy(); }, out);
    else if (action == QLatin1String("stop"))
        summary = runOperation(
            controller, [&] { return controller.stopProxy(); }, out);
    else
        summary = runOperation(
            controller, [&] { return controller.refreshProxy(); }, out);
    out << '\n' << summary.text();
    return summary.failed() == 0 ? 0 : 1;
}

int runScriptCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("profile"), QStringLiteral("Cluster profile."), QStringLiteral("FILE") });
    parser.addOption(
        { QStringLiteral("node"), QStringLiteral("The node (repeatable; default all)."), QStringLiteral("NAME") });
    parser.addOption({ QStringLiteral("yes"), QStringLiteral("Upload without asking.") });
    if (!pdctl::parseAction(
            parser, args, { QStringLiteral("show"), QStringLiteral("diff"), QStringLiteral("upload") })) {
        const QString problem = !parser.errorText().isEmpty() ? parser.errorText()
                                : !parser.isSet(QStringLiteral("profile")) ? QStringLiteral("--profile FILE is required")
                                                                           : QString();
        return pdctl::printUsage(err, QStringLiteral("script"), problem,
            "usage: pdctl script show|diff|upload --profile FILE [--node NAME]... [--yes]\n"
            "  show: the generated run_dp_template.sh; diff: against each node's copy; upload: diff, confirm, "
            "write\n");
    }
    const QString action = parser.positionalArguments().first();
    const auto profile = loadChecked(parser.value(QStringLiteral("profile")), err);
    if (!profile)
        return 1;
    QList<pd::Node> nodes;
    const QStringList names = parser.values(QStringLiteral("node"));
    for (const pd::Node &node : profile->nodes) {
        if (names.isEmpty() || names.contains(node.name))
            nodes.append(node);
    }
    for (const QString &name : names) {
        if (std::none_of(nodes.begin(), nodes.end(), [&name](const pd::Node &n) { return n.name == name; })) {
            err << "pdctl script: no node named '" << name << "'\n";
            return 1;
        }
    }
    if (action == QLatin1String("show")) {
        if (nodes.size() != 1) {
            err << "pdctl script show: name one node with --node\n";
            return pdctl::kUsageExit;
        }
        const pd::GeneratedScript script = pd::generateTemplateScript(*profile, nodes.first());
        for (const QString &note : script.notes)
            err << "note: " << note << '\n';
        if (!script.error.isEmpty()) {
            err << "pdctl script: " << script.error << '\n';
            return 1;
        }
        out << QString::fromUtf8(script.text);
        return 0;
    }
    int failures = 0;
    QList<QPair<pd::Node, pd::ScriptPlan>> uploads;
    for (const pd::Node &node : std::as_const(nodes)) {
        QString error;
        const std::shared_ptr<pd::CommandRunner> runner = runners.runner(pd::nodeTarget(node), &error);
        if (!runner) {
            err << "pdctl script: " << error << '\n';
            ++failures;
            continue;
        }
        const pd::ScriptPlan plan = pd::planTemplateScript(*runner, *profile, node, std::chrono::seconds(30));
        for (const QString &note : plan.notes)
            err << "note: " << note << '\n';
        if (!plan.error.isEmpty()) {
            err << "pdctl script: " << plan.error << '\n';
            ++failures;
            continue;
        }
        if (!plan.needsUpload()) {
            out << node.name << ": " << plan.path << " is up to date\n";
            continue;
        }
        out << plan.diff;
        uploads.append({ node, plan });
    }
    if (action == QLatin1String("diff") || uploads.isEmpty())
        return failures == 0 ? 0 : 1;
    if (!parser.isSet(QStringLiteral("yes"))) {
        if (!::isatty(STDIN_FILENO)) {
            err << "pdctl script upload: not a terminal; pass --yes to upload to " << uploads.size() << " node(s)\n";
            return 1;
        }
        out << "Upload to " << uploads.size() << " node(s)? [y/N] ";
        out.flush();
        char answer[16] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
            out << "nothing uploaded\n";
            return 1;
        }
    }
    for (const auto &[node, plan] : std::as_const(uploads)) {
        QString error;
        const std::shared_ptr<pd::CommandRunner> runner = runners.runner(pd::nodeTarget(node), &error);
        const QString problem
            = runner ? pd::applyTemplateScript(*runner, *profile, node, plan, std::chrono::seconds(30)) : error;
        if (problem.isEmpty()) {
            out << node.name << ": " << plan.path << " uploaded\n";
        } else {
            err << "pdctl script: " << problem << '\n';
            ++failures;
        }
    }
    return failures == 0 ? 0 : 1;
}

} // namespace pdctl
