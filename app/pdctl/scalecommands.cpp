// SPDX-License-Identifier: MIT
#include "scalecommands.h"
#include "eventwait.h"
#include "interrupts.h"
#include "profileload.h"
#include "proxysession.h"
#include "statusgroups.h"
#include "verbparser.h"

#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "cluster/profilevalidator.h"
#include "net/membershipjournal.h"
#include "net/membershipreconciler.h"
#include "net/profileproxyendpoint.h"
#include "net/proxyclient.h"
#include "ops/enginecontroller.h"
#include "ops/listenertimingsync.h"
#include "ops/proxycommandlinemembership.h"
#include "ops/proxyrestartscale.h"
#include "ops/runnerenginecontrol.h"
#include "ops/scalecontext.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <unistd.h>

namespace pdctl {

namespace {

using namespace pd;

} // namespace

int runStatusCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    pdctl::VerbParser p(QStringLiteral("status"), QStringLiteral("usage: pdctl status --profile FILE [--json]"));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE")).flag(QStringLiteral("json"));
    if (!p.parse(args, err))
        return pdctl::kUsageExit;
    const QString profile = p.value(QStringLiteral("profile"));
    // A proxy that does not answer is news, not a reason to say nothing: every engine is still probed.
    auto s = connectSession(profile, err, true);
    if (!s)
        return 1;
    const bool proxyUp = s->caps->reachable;
    QHash<QString, EngineReadiness> ready;
    int pending = int(s->refs.size());
    for (const EngineRef &e : s->refs)
        s->probe->readiness(e, [&ready, &pending, id = e.id](const EngineReadiness &r) {
            ready.insert(id, r);
            --pending;
        });
    spin([&pending] { return pending == 0; }, 30000);
    const ProxyHealth &h = s->table->health();
    auto http = [&ready](const QString &id) {
        const EngineReadiness r = ready.value(id);
        return r.ready() ? QStringLiteral("serving") : r.listening ? QStringLiteral("not-ready") : QStringLiteral("down");
    };
    // Listed by the proxy while nothing answers there (stopped after a scale-in the busy proxy has not
    // finished, or crashed): the proxy still routes to it, so it is dead in the proxy, never "active".
    auto membership = [&](const EngineRef &e) {
        const MembershipFact fact = s->table->fact(e.id, e.role);
        if (fact == MembershipFact::Active && http(e.id) == QLatin1String("down"))
            return QStringLiteral("dead-in-proxy");
        return membershipFactName(fact);
    };
    QHash<QString, Role> roles;
    for (const EngineRef &e : s->refs)
        roles.insert(e.id, e.role);
    const QList<GroupStatus> groups = groupStatus(s->profile, [&](const QString &id) {
        const EngineReadiness r = ready.value(id);
        return rankStateOfProbe(r.ready(), r.listening, s->table->fact(id, roles.value(id)));
    });
    if (p.isSet(QStringLiteral("json"))) {
        nlohmann::ordered_json engines = nlohmann::ordered_json::array();
        for (const EngineRef &e : s->refs)
            engines.push_back({{"id", e.id.toStdString()}, {"role", roleName(e.role).toStdString()}, {"node", e.node.toStdString()},
                               {"dp_rank", e.dpRank}, {"membership", membership(e).toStdString()},
                               {"http", http(e.id).toStdString()}});
        nlohmann::ordered_json proxy{{"address", s->proxy->endpoint().base.toString().toStdString()},
                                     {"reachable", proxyUp},
                                     {"generation", s->caps->generationLabel().toStdString()},
                                     {"prefill_instances", h.prefillInstances},
                                     {"decode_instances", h.decodeInstances}};
        proxy["request_num"] = h.requestNum ? nlohmann::ordered_json(*h.requestNum) : nlohmann::ordered_json();
        if (!proxyUp)
            proxy["error"] = s->caps->error.toStdString();
        nlohmann::ordered_json interrupted = nlohmann::ordered_json::array();
        for (const OperationRecord &r : std::as_const(s->interrupted))
            interrupted.push_back({ { "id", r.id.toStdString() }, { "kind", r.kind.toStdString() },
                { "role", roleName(r.role).toStdString() }, { "unit", r.unit.toStdString() },
                { "step", r.step.toStdString() }, { "owner", r.owner.describe().toStdString() },
                { "updated", r.updated.toString(Qt::ISODateWithMs).toStdString() } });
        out << QString::fromStdString(nlohmann::ordered_json { { "proxy", proxy }, { "engines", engines },
            { "groups", groupsJson(groups) },
            { "interrupted_operations",
                interrupted } }.dump(2))
            << '\n';
        return proxyUp && s->interrupted.isEmpty() ? 0 : 1;
    }
    if (proxyUp)
        out << "proxy " << s->proxy->endpoint().base.toString() << "  " << s->caps->generationLabel() << "  prefill "
            << h.prefillInstances << "  decode " << h.decodeInstances << "  in flight "
            << (h.requestNum ? QString::number(*h.requestNum) : QStringLiteral("?")) << '\n';
    else
        out << "proxy " << s->proxy->endpoint().base.toString() << "  UNREACHABLE: " << s->caps->error
            << "  (membership unknown; the engines below are probed directly)\n";
    out << QStringLiteral("%1 %2 %3 %4 %5 %6\n").arg(QStringLiteral("ENGINE"), -22).arg(QStringLiteral("ROLE"), -8)
               .arg(QStringLiteral("NODE"), -8).arg(QStringLiteral("RANK"), 4).arg(QStringLiteral("MEMBERSHIP"), -13).arg(QStringLiteral("HTTP"));
    for (const EngineRef &e : s->refs)
        out << QStringLiteral("%1 %2 %3 %4 %5 %6\n").arg(e.id, -22).arg(roleName(e.role), -8).arg(e.node, -8).arg(e.dpRank, 4)
                   .arg(membership(e), -13).arg(http(e.id));
    printGroups(out, groups);
    // An operation cut short is news with its repair, and not a healthy exit.
    if (printInterrupted(*s, s->interrupted, out) > 0)
        return 1;
    return proxyUp ? 0 : 1;
}

namespace {

// A proxy without /instances: the new membership by restarting it with new lists, one line per step.
int applyByProxyRestart(ProxyRestartScale &restart, const Profile &profileModel, const QString &profile, Role role,
                        const AuditLog &audit, QTextStream &out)
{
    QHash<int, StepStatus> shown; // a line when a step changes status, not per progress update
    QObject::connect(&restart, &ScaleOperation::stepChanged, &restart, [&out, &shown, op = &restart](int step) {
        const OperationStep &st = op->steps().at(step);
        if (shown.contains(step) && shown.value(step) == st.status)
            return;
        shown.insert(step, st.status);
        out << QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")) << "  proxy restart  " << st.label << ": "
            << stepStatusName(st.status) << (st.detail.isEmpty() ? QString() : QStringLiteral(" — ") + st.detail) << '\n' << Qt::flush;
    });
    restart.start();
    runUntilFinished([&restart] { return restart.isFinished(); }, [&restart] { restart.cancel(); }, out,
        QStringLiteral(
            "the restart stops at its next safe point (once the proxy was stopped it is started again first)"));
    out << operationOutcomeName(restart.outcome()) << "  " << restart.summary() << '\n';
    if (restart.outcome() == OperationOutcome::Succeeded && profileModel.proxyInstances(role) != restart.newLists().of(role))
        out << "note: " << profile << " still lists " << profileModel.proxyInstances(role).size() << ' ' << roleName(role)
            << " instance(s); `pdctl proxy start` starts the proxy with the profile's lists (set proxy."
            << roleName(role) << "_instances to keep this membership)\n";
    out << "audit log: " << audit.path() << '\n';
    return restart.outcome() == OperationOutcome::Succeeded ? 0 : 1;
}

// The coupled groups of `role` some of whose ranks answer (listen) and some do not, one line each.
QStringList halfAliveGroups(const DpGroups &groups, Role role, const QList<EngineRef> &refs, EngineProbe &probe)
{
    QList<EngineRef> ranks;
    for (const DpGroup *g : groups.ofRole(role))
        if (g->coupled)
            for (const EngineRef &e : refs)
                if (g->contains(e.id))
                    ranks << e;
    std::optional<PoolReadings> readings;
    probe.poolReadings(ranks, [&readings](const PoolReadings &r) { readings = r; });
    spin([&readings] { return readings.has_value(); }, 20000);
    QStringList lines;
    if (!readings)
        return lines;
    for (const DpGroup *g : groups.ofRole(role)) {
        if (!g->coupled)
            continue;
        QStringList silent;
        for (const QString &id : g->engineIds)
            if (readings->notAnswering.contains(id))
                silent << id;
        if (!silent.isEmpty() && silent.size() < g->size())
            lines << QStringLiteral("DP group %1 is broken: %2 of its %3 ranks do not answer (%4); the others hang in "
                                    "their collectives. Restart the whole group")
                         .arg(g->id)
                         .arg(silent.size())
                         .arg(g->size())
                         .arg(silent.join(QStringLiteral(", ")));
    }
    return lines;
}

} // namespace

int runScaleCommand(const QStringList &args, RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    pdctl::VerbParser p(QStringLiteral("scale"),
        QStringLiteral(
            "usage: pdctl scale --profile FILE --pool decode|prefill --to N [--yes] [--override-last-instance]\n"
            "                   [--sim-control HOST:PORT] [--audit FILE] [--parallel N] [--idle-timeout S] "
            "[--allow-in-flight]\n"
            "                   [--allow-proxy-restart] [--drain-wait S]\n"
            "  Engines the busy proxy still drains (a scale-in being undone) come back once it is idle, waiting\n"
            "  --drain-wait S at most from the drain's start (default --idle-timeout); --allow-proxy-restart:\n"
            "  after that wait (default 3 of the proxy's listener ticks) the proxy is restarted with its\n"
            "  current lists instead; the requests in flight then fail (counted in the audit log)"));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE"));
    for (const char *name : { "pool", "to", "sim-control", "audit", "parallel", "idle-timeout", "drain-wait" })
        p.option(QString::fromLatin1(name), QStringLiteral("VALUE"));
    for (const char *name : { "yes", "override-last-instance", "allow-in-flight", "allow-proxy-restart" })
        p.flag(QString::fromLatin1(name));
    if (!p.parse(args, err))
        return pdctl::kUsageExit;
    const QString profile = p.value(QStringLiteral("profile"));
    const QString pool = p.value(QStringLiteral("pool"));
    bool toOk = false;
    const int to = p.value(QStringLiteral("to")).toInt(&toOk);
    if (!toOk || to < 0)
        return p.usageError(err, QStringLiteral("--to N is required (a whole number of instances)"));
    if (pool != QLatin1String("decode") && pool != QLatin1String("prefill"))
        return p.usageError(err, QStringLiteral("--pool must be decode or prefill"));
    DrainOptions drain;
    if (int exitCode = 0; !parseDrainOptions(p, err, &drain, &exitCode))
        return exitCode;
    const Role role = pool == QLatin1String("decode") ? Role::Decode : Role::Prefill;
    // Whole coupled DP groups decide which sizes exist at all: that needs only the profile, so a size
    // no plan can reach is refused before anything is contacted (or changed).
    if (const ProfileLoadResult loaded = loadProfileFile(profile); loaded.profile) {
        const QString unreachable = unreachablePoolSize(DpGroups(*loaded.profile), role, to);
        if (!unreachable.isEmpty()) {
            out << "Cannot apply: " << unreachable << '\n';
            err << "pdctl scale: not applied\n";
            return 1;
        }
    }
    const QString simControl = p.value(QStringLiteral("sim-control"));
    auto s = connectSession(profile, err);
    if (!s)
        return 1;
    if (!profileAllowsActing(*s, !simControl.isEmpty(), QStringLiteral("scale"), err))
        return 1;
    // An operation cut short on this pool is repaired (finished or undone) or forgotten first: a plan made
    // over what it left (a group half stopped, ranks draining that read active) would hide it.
    if (const QList<OperationRecord> cut = s->interruptedOf(role); !cut.isEmpty()) {
        printInterrupted(*s, cut, out);
        err << "pdctl scale: not applied: repair the operation(s) cut short on the " << roleName(role)
            << " pool first\n";
        return 1;
    }
    const std::unique_ptr<ActingSession> acting
        = prepareActing(*s, runners, simControl, p.value(QStringLiteral("audit")));
    ScaleContext &ctx = acting->ctx;
    const AuditLog &audit = *acting->audit;
    applyDrainOptions(ctx, drain);
    // A proxy without /instances (v0.9.1-dev): its membership is its command line, read from the running process.
    std::optional<ProxyLists> commandLineLists;
    if (const QString mismatch = s->caps->generationMismatch(); !mismatch.isEmpty()) {
        err << "proxy " << s->proxy->endpoint().base.toString() << ": " << mismatch << "\npdctl scale: not applied\n";
        return 1;
    }
    if (s->caps->scalesByRestart()) {
        std::optional<QString> why;
        syncCommandLineMembership(ctx, [&why](const QString &w) { why = w; });
        spin([&why] { return why.has_value(); }, 30000);
        if (!ctx.commandLineMembership) {
            err << "proxy " << s->proxy->endpoint().base.toString() << " (" << s->caps->generationLabel()
                << ") has no /instances API, so its membership is its command line, which cannot be read: "
                << why.value_or(QStringLiteral("no answer in 30 s")) << '\n';
            return 1;
        }
        commandLineLists = ctx.commandLineMembership;
    }

    QList<EngineRef> members;
    for (const EngineRef &e : s->refs)
        if (e.role == role && s->table->fact(e.id, role) == MembershipFact::Active)
            members << e;
    // The same readings the console's Scale panel takes: loads, and the listed members nothing answers on.
    std::optional<PoolReadings> readings;
    s->probe->poolReadings(members, [&readings](const PoolReadings &r) { readings = r; });
    spin([&readings] { return readings.has_value(); }, 20000);
    const PoolReadings got = readings.value_or(PoolReadings());
    ScalePlan plan = planPoolScale(role, to, s->refs, ctx.groups, *s->table, got.loads, ctx.settings, got.notAnswering);
    if (commandLineLists)
        ProxyRestartScale::markPlan(plan, *commandLineLists);
    out << plan.describe() << '\n';
    if (!plan.returningDrains.isEmpty() && !plan.byProxyRestart)
        out << (ctx.settings.restartProxyForDrains
                ? QStringLiteral(
                    "--allow-proxy-restart: if the proxy is still draining them %1 s after they serve, it is "
                    "restarted with its current lists.\n")
                      .arg(drainFinaliseWaitMs(ctx) / 1000.0)
                : QStringLiteral(
                    "Without --allow-proxy-restart the scale stops if the proxy still drains them %1 s after "
                    "they serve (exit 1).\n")
                      .arg(drainFinaliseWaitMs(ctx) / 1000.0));
    // A coupled group some of whose ranks answer and some not is broken (a crash, or an operation
    // interrupted between its stops): its survivors hang. "Nothing to do" never hides it.
    const QStringList broken = halfAliveGroups(ctx.groups, role, s->refs, *s->probe);
    for (const QString &line : broken)
        out << "Warning: " << line << '\n';
    const bool override = p.isSet(QStringLiteral("override-last-instance"));
    const bool allowInFlight = p.isSet(QStringLiteral("allow-in-flight"));
    if (plan.isNoop()) {
        if (broken.isEmpty())
            return 0;
        err << "pdctl scale: the pool has the size asked for, but " << broken.size()
            << " DP group(s) are broken; restart them (console: Restart group)\n";
        return 1;
    }
    if (!plan.canApply(override)) {
        err << "pdctl scale: not applied\n";
        return 1;
    }
    std::unique_ptr<ProxyRestartScale> restart;
    if (commandLineLists) {
        restart = std::make_unique<ProxyRestartScale>(plan, *commandLineLists, &ctx);
        restart->setAllowInFlight(allowInFlight);
        out << "Proxy: " << s->caps->generationLabel() << ". "
            << (allowInFlight ? "--allow-in-flight: it does not wait, and the requests in flight when it stops fail.\n"
                              : "The wait for no request in flight is bounded by --idle-timeout S; --allow-in-flight does not wait.\n");
    }
    if (!p.isSet(QStringLiteral("yes"))) {
        if (const int exitCode = confirmOnTerminal(QStringLiteral("scale"), out, err); exitCode != kApply)
            return exitCode;
    }
    out.flush();
    if (restart)
        return applyByProxyRestart(*restart, s->profile, profile, role, audit, out);
    s->table->start(2000);
    return runOperations(ctx, p.value(QStringLiteral("parallel")), audit, out,
        [&plan, override](ScaleRunner &runner) { return runner.apply(plan, override); });
}

int runAuditCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    pdctl::VerbParser p(QStringLiteral("audit"), QStringLiteral("usage: pdctl audit [--file FILE] [--json]"));
    p.option(QStringLiteral("file"), QStringLiteral("FILE")).flag(QStringLiteral("json"));
    if (!p.parse(args, err))
        return pdctl::kUsageExit;
    const QString file = p.value(QStringLiteral("file"));
    const AuditReadResult r = readAuditLog(file.isEmpty() ? AuditLog::defaultPath() : file);
    if (!r.opened) {
        err << r.error << '\n';
        return 1;
    }
    for (const QString &problem : r.problems)
        err << problem << '\n';
    const bool asJson = p.isSet(QStringLiteral("json"));
    for (const AuditEntry &e : r.entries) {
        if (asJson) {
            out << QString::fromStdString(auditEntryToJson(e).dump()) << '\n';
            continue;
        }
        out << e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << "  " << e.user << "  " << e.action << "  "
            << e.target << "  " << e.result << "  " << e.durationMs << " ms" << (e.detail.isEmpty() ? QString() : QStringLiteral("  ") + e.detail)
            << '\n';
    }
    return r.problems.isEmpty() ? 0 : 1;
}

} // namespace pdctl
