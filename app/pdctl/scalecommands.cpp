// SPDX-License-Identifier: MIT
#include "scalecommands.h"
#include "eventwait.h"
#include "interrupts.h"
#include "profileload.h"
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

struct Session {
    Profile profile;
    QList<EngineRef> refs;
    std::unique_ptr<ProxyClient> proxy;
    std::unique_ptr<MembershipReconciler> table;
    std::unique_ptr<MembershipJournal> journal; // what a console or an earlier pdctl left pending
    std::unique_ptr<EngineProbe> probe;
    std::optional<ProxyCapabilities> caps;

    ~Session()
    {
        if (journal && !journal->flush())
            QTextStream(stderr) << journal->lastError() << '\n';
    }
};

// Loads the profile, connects to its proxy, detects the generation and reads the membership. A proxy
// that does not answer ends it (nullptr), unless `proxyOptional`: then the session comes back with
// caps->reachable false and no membership.
std::unique_ptr<Session> connect(const QString &profilePath, QTextStream &err, bool proxyOptional = false)
{
    std::optional<Profile> profile = pdctl::loadProfileOrReport(profilePath, err);
    if (!profile)
        return nullptr;
    auto s = std::make_unique<Session>();
    s->profile = std::move(*profile);
    s->refs = engineRefs(s->profile);
    const QByteArray token = profileApiKey(s->profile);
    s->proxy = std::make_unique<ProxyClient>();
    const ProxyEndpoint endpoint = profileProxyEndpoint(s->profile);
    s->proxy->setEndpoint(endpoint);
    s->probe = std::make_unique<EngineProbe>();
    s->probe->setBearerToken(token);
    s->probe->setTls(s->profile.tls.engines, endpoint.extraCaCertificates);
    s->table = std::make_unique<MembershipReconciler>(s->proxy.get());
    s->table->setListenerTiming(int(s->profile.proxy.waitingRetryInterval * 1000), s->profile.proxy.maxWaitingRetries, 5000);
    QList<QPair<QString, Role>> configured;
    for (const EngineRef &e : s->refs)
        configured.append({e.id, e.role});
    s->table->setConfigured(configured);
    const QString proxyBase = s->proxy->endpoint().base.toString();
    s->journal = std::make_unique<MembershipJournal>(MembershipJournal::pathFor(proxyBase), proxyBase);
    QString journalError;
    if (!s->journal->attach(s->table.get(), &journalError))
        err << "warning: " << journalError << " (pending adds and drains of an earlier session are not known)\n";
    s->proxy->detectCapabilities([&s](const ProxyCapabilities &c) { s->caps = c; });
    spin([&s] { return s->caps.has_value(); }, 20000);
    if (!s->caps || !s->caps->reachable) {
        if (proxyOptional) {
            if (!s->caps)
                s->caps = ProxyCapabilities{false, false, false, false, QStringLiteral("no answer within 20 s")};
            return s;
        }
        err << "proxy " << s->proxy->endpoint().base.toString() << ": " << (s->caps ? s->caps->error : QStringLiteral("no answer")) << '\n';
        return nullptr;
    }
    if (s->caps->hasInstancesApi) {
        std::optional<bool> ok;
        s->table->reconcileNow([&ok](bool listed) { ok = listed; });
        spin([&ok] { return ok.has_value(); }, 20000);
    }
    return s;
}

} // namespace

int runStatusCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    pdctl::VerbParser p(QStringLiteral("status"), QStringLiteral("usage: pdctl status --profile FILE [--json]"));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE")).flag(QStringLiteral("json"));
    if (!p.parse(args, err))
        return pdctl::kUsageExit;
    const QString profile = p.value(QStringLiteral("profile"));
    // A proxy that does not answer is news, not a reason to say nothing: every engine is still probed.
    auto s = connect(profile, err, true);
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
        out << QString::fromStdString(nlohmann::ordered_json{{"proxy", proxy}, {"engines", engines}, {"groups", groupsJson(groups)}}.dump(2)) << '\n';
        return proxyUp ? 0 : 1;
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
    return proxyUp ? 0 : 1;
}

namespace {

// Without --yes the operator types "yes" on a terminal; kApply when confirmed, else the exit status.
constexpr int kApply = -1;

int confirmScale(QTextStream &out, QTextStream &err)
{
    if (!isatty(STDIN_FILENO)) {
        err << "pdctl scale: stdin is not a terminal; confirm with --yes\n";
        return 2;
    }
    out << "Apply? Type yes: " << Qt::flush;
    QTextStream in(stdin);
    if (in.readLine().trimmed() != QLatin1String("yes")) {
        out << "Not applied.\n";
        return 1;
    }
    return kApply;
}

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

// The plan's operations through a ScaleRunner, one line whenever a step changes status.
int applyByRunner(ScaleContext &ctx, const ScalePlan &plan, bool override, const QString &parallelText, const AuditLog &audit,
                  QTextStream &out)
{
    ScaleRunner runner(&ctx);
    bool okParallel = false;
    const int parallel = parallelText.toInt(&okParallel);
    if (okParallel)
        runner.setParallelCap(parallel);
    QHash<QPair<ScaleOperation *, int>, StepStatus> printed; // progress lines only when a step changes status
    QObject::connect(&runner, &ScaleRunner::operationChanged, &runner, [&out, &printed](ScaleOperation *op, int step) {
        const OperationStep &st = op->steps().at(step);
        const auto key = qMakePair(op, step);
        if (printed.contains(key) && printed.value(key) == st.status)
            return;
        printed.insert(key, st.status);
        out << QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")) << "  " << op->engine().id << "  " << st.label << ": "
            << stepStatusName(st.status) << (st.detail.isEmpty() ? QString() : QStringLiteral(" — ") + st.detail) << '\n' << Qt::flush;
    });
    const QList<ScaleOperation *> ops = runner.apply(plan, override);
    // Ctrl-C or SIGTERM: every operation stops at its next safe point (a request sent is awaited, a
    // stopped proxy is started again) and says what it left, instead of dying between two steps.
    int signal = 0;
    const bool cancelled = runUntilFinished([&runner] { return runner.isIdle(); }, [&runner] { runner.cancelAll(); },
        out, QStringLiteral("every operation stops at its next safe point; again to quit at once"), &signal);
    int failed = 0;
    for (const ScaleOperation *op : ops) {
        out << operationOutcomeName(op->outcome()) << "  " << op->engine().id << "  " << op->summary() << '\n';
        failed += op->outcome() != OperationOutcome::Succeeded;
    }
    out << "audit log: " << audit.path() << '\n';
    if (cancelled)
        return 128 + signal;
    return failed ? 1 : 0;
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
    std::optional<int> idleTimeoutMs;
    if (const QString idle = p.value(QStringLiteral("idle-timeout")); !idle.isEmpty()) {
        bool ok = false;
        const double seconds = idle.toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 86400)
            return p.usageError(err, QStringLiteral("--idle-timeout is seconds (0 < S <= 86400), not \"%1\"").arg(idle));
        idleTimeoutMs = int(seconds * 1000);
    }
    std::optional<int> drainWaitMs;
    if (const QString wait = p.value(QStringLiteral("drain-wait")); !wait.isEmpty()) {
        bool ok = false;
        const double seconds = wait.toDouble(&ok);
        if (!ok || seconds < 0 || seconds > 86400)
            return p.usageError(err, QStringLiteral("--drain-wait is seconds (0 <= S <= 86400), not \"%1\"").arg(wait));
        drainWaitMs = int(seconds * 1000);
    }
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
    auto s = connect(profile, err);
    if (!s)
        return 1;
    // The engines' processes: pdsim's control API when given, else the console's own path, the launcher
    // through each node's runner (SSH, or local for this machine's nodes).
    if (simControl.isEmpty()) {
        const QList<ValidationIssue> issues = validateProfile(s->profile);
        if (hasErrors(issues)) {
            for (const ValidationIssue &issue : issues)
                if (issue.severity == Severity::Error)
                    err << profile << ": " << issue.pointer << ": " << issue.message << '\n';
            err << "pdctl scale: the profile has errors; fix them first (pdctl profile validate " << profile << ")\n";
            return 1;
        }
    }
    EngineController controller(s->profile, std::shared_ptr<RunnerFactory>(&runners, [](RunnerFactory *) {}));
    std::unique_ptr<EngineControl> controlOwner;
    if (simControl.isEmpty())
        controlOwner = std::make_unique<RunnerEngineControl>(&controller);
    else
        controlOwner = std::make_unique<SimClusterEngineControl>(QUrl(QStringLiteral("http://") + simControl));
    EngineControl &control = *controlOwner;
    const QString auditPath = p.value(QStringLiteral("audit"));
    AuditLog audit(auditPath.isEmpty() ? AuditLog::defaultPath() : auditPath);
    ScaleContext ctx;
    ctx.proxy = s->proxy.get();
    ctx.membership = s->table.get();
    ctx.control = &control;
    ctx.probe = s->probe.get();
    ctx.audit = &audit;
    ctx.settings.verifyTrafficTimeoutMs = 15000;
    if (idleTimeoutMs)
        ctx.settings.idleTimeoutMs = *idleTimeoutMs;
    if (drainWaitMs)
        ctx.settings.drainFinaliseWaitMs = *drainWaitMs;
    ctx.settings.restartProxyForDrains = p.isSet(QStringLiteral("allow-proxy-restart"));
    setScaleContextProfile(ctx, s->profile);
    // A proxy without /instances (v0.9.1-dev): its membership is its command line, read from the running process.
    std::optional<ProxyLists> commandLineLists;
    if (!s->caps->hasInstancesApi) {
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
    std::optional<QString> timingWhy;
    syncListenerTiming(ctx, [&timingWhy](const QString &why) { timingWhy = why; });
    spin([&timingWhy] { return timingWhy.has_value(); }, 20000);

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
        if (const int exitCode = confirmScale(out, err); exitCode != kApply)
            return exitCode;
    }
    out.flush();
    if (restart)
        return applyByProxyRestart(*restart, s->profile, profile, role, audit, out);
    s->table->start(2000);
    return applyByRunner(ctx, plan, override, p.value(QStringLiteral("parallel")), audit, out);
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
