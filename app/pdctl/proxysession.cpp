// SPDX-License-Identifier: MIT
#include "proxysession.h"
#include "eventwait.h"
#include "interrupts.h"
#include "profileload.h"
#include "verbparser.h"

#include "cluster/profilevalidator.h"
#include "exec/runnerfactory.h"
#include "net/profileproxyendpoint.h"
#include "ops/interruptedoperations.h"
#include "ops/listenertimingsync.h"
#include "ops/runnerenginecontrol.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"

#include <unistd.h>

namespace pdctl {

using namespace pd;

Session::~Session()
{
    if (journal && !journal->flush())
        QTextStream(stderr) << journal->lastError() << '\n';
}

QList<OperationRecord> Session::interruptedOf(Role role) const
{
    QList<OperationRecord> of;
    for (const OperationRecord &r : interrupted)
        if (r.role == role)
            of << r;
    return of;
}

std::unique_ptr<Session> connectSession(const QString &profilePath, QTextStream &err, bool proxyOptional)
{
    std::optional<Profile> profile = pdctl::loadProfileOrReport(profilePath, err);
    if (!profile)
        return nullptr;
    auto s = std::make_unique<Session>();
    s->profile = std::move(*profile);
    s->profilePath = profilePath;
    s->refs = engineRefs(s->profile);
    const QByteArray token = profileApiKey(s->profile);
    s->proxy = std::make_unique<ProxyClient>();
    const ProxyEndpoint endpoint = profileProxyEndpoint(s->profile);
    s->proxy->setEndpoint(endpoint);
    s->probe = std::make_unique<EngineProbe>();
    s->probe->setBearerToken(token);
    s->probe->setTls(s->profile.tls.engines, endpoint.extraCaCertificates);
    s->table = std::make_unique<MembershipReconciler>(s->proxy.get());
    s->table->setListenerTiming(
        int(s->profile.proxy.waitingRetryInterval * 1000), s->profile.proxy.maxWaitingRetries, 5000);
    QList<QPair<QString, Role>> configured;
    for (const EngineRef &e : s->refs)
        configured.append({ e.id, e.role });
    s->table->setConfigured(configured);
    const QString proxyBase = s->proxy->endpoint().base.toString();
    s->journal = std::make_unique<MembershipJournal>(MembershipJournal::pathFor(proxyBase), proxyBase);
    QString journalError;
    if (!s->journal->attach(s->table.get(), &journalError))
        err << "warning: " << journalError << " (pending adds and drains of an earlier session are not known)\n";
    s->operations = std::make_unique<OperationJournal>(OperationJournal::pathFor(proxyBase), proxyBase);
    QString operationsError;
    if (const auto interrupted = s->operations->interrupted(&operationsError))
        s->interrupted = *interrupted;
    else
        err << "warning: " << operationsError << " (operations cut short earlier are not known; nothing is acted on)\n";
    s->proxy->detectCapabilities([&s](const ProxyCapabilities &c) { s->caps = c; });
    spin([&s] { return s->caps.has_value(); }, 20000);
    if (!s->caps || !s->caps->reachable) {
        if (proxyOptional) {
            if (!s->caps) {
                ProxyCapabilities silent;
                silent.error = QStringLiteral("no answer within 20 s");
                s->caps = silent;
            }
            return s;
        }
        err << "proxy " << s->proxy->endpoint().base.toString() << ": "
            << (s->caps ? s->caps->error : QStringLiteral("no answer")) << '\n';
        return nullptr;
    }
    if (s->caps->hasInstancesApi) {
        std::optional<bool> ok;
        s->table->reconcileNow([&ok](bool listed) { ok = listed; });
        spin([&ok] { return ok.has_value(); }, 20000);
        // What an interrupted operation may have sent without living to record the answer.
        if (ok.value_or(false))
            for (const OperationRecord &r : std::as_const(s->interrupted))
                assumeInterruptedMembership(r, *s->table);
        // A verb that acts plans over the membership: without it, nothing (a failed call is said, never
        // read as an empty pool or as a proxy without /instances).
        if (!ok.value_or(false) && !proxyOptional) {
            err << "proxy " << s->proxy->endpoint().base.toString() << ": cannot read its membership: "
                << (s->table->lastError().isEmpty() ? QStringLiteral("no answer within 20 s") : s->table->lastError())
                << '\n';
            return nullptr;
        }
    }
    return s;
}

std::unique_ptr<ActingSession> prepareActing(
    Session &s, RunnerFactory &runners, const QString &simControl, const QString &auditPath)
{
    auto a = std::make_unique<ActingSession>();
    a->controller = std::make_unique<EngineController>(
        s.profile, std::shared_ptr<RunnerFactory>(&runners, [](RunnerFactory *) {}));
    if (simControl.isEmpty())
        a->control = std::make_unique<RunnerEngineControl>(a->controller.get());
    else
        a->control = std::make_unique<SimClusterEngineControl>(QUrl(QStringLiteral("http://") + simControl));
    a->audit = std::make_unique<AuditLog>(auditPath.isEmpty() ? AuditLog::defaultPath() : auditPath);
    ScaleContext &ctx = a->ctx;
    ctx.proxy = s.proxy.get();
    ctx.membership = s.table.get();
    ctx.control = a->control.get();
    ctx.probe = s.probe.get();
    ctx.audit = a->audit.get();
    ctx.journal = s.operations.get();
    ctx.settings.verifyTrafficTimeoutMs = 15000;
    setScaleContextProfile(ctx, s.profile);
    return a;
}

int printInterrupted(Session &s, const QList<OperationRecord> &records, QTextStream &out)
{
    if (records.isEmpty())
        return 0;
    QList<EngineRef> engines;
    for (const OperationRecord &r : records)
        for (const EngineRef &e : std::as_const(s.refs))
            if (r.engines.contains(e.id) && e.role == r.role)
                engines << e;
    std::optional<PoolReadings> readings;
    s.probe->poolReadings(engines, [&readings](const PoolReadings &got) { readings = got; });
    spin([&readings] { return readings.has_value(); }, 20000);
    out << records.size() << " operation(s) cut short (their process is gone):\n";
    for (const OperationRecord &r : records) {
        out << "  " << r.id.left(8) << "  " << describeInterrupted(r) << '\n';
        out << "            left: " << describeLeft(r, *s.table, readings ? &readings->notAnswering : nullptr) << '\n';
        QString why;
        for (const RepairAction action : { RepairAction::Finish, RepairAction::Undo }) {
            const bool finish = action == RepairAction::Finish;
            const QString text = repairText(r, action, &why);
            if (!text.isEmpty())
                out << "            " << (finish ? "finish: " : "undo:   ") << text
                    << "\n                    pdctl repair --profile " << s.profilePath
                    << (finish ? " --finish " : " --undo ") << r.id.left(8) << '\n';
        }
        if (!why.isEmpty())
            out << "            " << why << '\n';
        out << "            forget: pdctl repair --profile " << s.profilePath << " --forget " << r.id.left(8) << '\n';
    }
    return int(records.size());
}

bool parseDrainOptions(const VerbParser &p, QTextStream &err, DrainOptions *options, int *exitCode)
{
    auto seconds = [&](const char *name, bool zeroAllowed, std::optional<int> *ms) {
        const QString text = p.value(QString::fromLatin1(name));
        if (text.isEmpty())
            return true;
        bool ok = false;
        const double s = text.toDouble(&ok);
        if (!ok || (zeroAllowed ? s < 0 : s <= 0) || s > 86400) {
            *exitCode = p.usageError(err,
                QStringLiteral("--%1 is seconds (0 %2 S <= 86400), not \"%3\"")
                    .arg(QLatin1String(name), zeroAllowed ? QStringLiteral("<=") : QStringLiteral("<"), text));
            return false;
        }
        *ms = int(s * 1000);
        return true;
    };
    options->allowProxyRestart = p.isSet(QStringLiteral("allow-proxy-restart"));
    return seconds("idle-timeout", false, &options->idleTimeoutMs)
        && seconds("drain-wait", true, &options->drainWaitMs);
}

void applyDrainOptions(ScaleContext &ctx, const DrainOptions &options)
{
    if (options.idleTimeoutMs)
        ctx.settings.idleTimeoutMs = *options.idleTimeoutMs;
    if (options.drainWaitMs)
        ctx.settings.drainFinaliseWaitMs = *options.drainWaitMs;
    ctx.settings.restartProxyForDrains = options.allowProxyRestart;
    std::optional<QString> timingWhy;
    syncListenerTiming(ctx, [&timingWhy](const QString &why) { timingWhy = why; });
    spin([&timingWhy] { return timingWhy.has_value(); }, 20000);
}

int confirmOnTerminal(const QString &verb, QTextStream &out, QTextStream &err)
{
    if (!isatty(STDIN_FILENO)) {
        err << "pdctl " << verb << ": stdin is not a terminal; confirm with --yes\n";
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

bool profileAllowsActing(const Session &s, bool viaSim, const QString &verb, QTextStream &err)
{
    if (viaSim)
        return true;
    const QList<ValidationIssue> issues = validateProfile(s.profile);
    if (!hasErrors(issues))
        return true;
    for (const ValidationIssue &issue : issues)
        if (issue.severity == Severity::Error)
            err << s.profilePath << ": " << issue.pointer << ": " << issue.message << '\n';
    err << "pdctl " << verb << ": the profile has errors; fix them first (pdctl profile validate " << s.profilePath
        << ")\n";
    return false;
}

int runOperations(ScaleContext &ctx, const QString &parallelText, const AuditLog &audit, QTextStream &out,
    const std::function<QList<ScaleOperation *>(ScaleRunner &)> &enqueue)
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
        out << QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")) << "  " << op->engine().id << "  "
            << st.label << ": " << stepStatusName(st.status)
            << (st.detail.isEmpty() ? QString() : QStringLiteral(" — ") + st.detail) << '\n'
            << Qt::flush;
    });
    const QList<ScaleOperation *> ops = enqueue(runner);
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

} // namespace pdctl
