// SPDX-License-Identifier: MIT
#include "watchcommands.h"
#include "eventwait.h"
#include "interrupts.h"
#include "profileload.h"
#include "verbparser.h"

#include "audit/auditlog.h"
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "net/proxyclient.h"
#include "ops/enginecontroller.h"
#include "ops/runnerenginecontrol.h"
#include "ops/simclusterenginecontrol.h"
#include "state/statetracker.h"
#include "triage/triage.h"
#include "watch/clusterwatch.h"
#include "watch/watchdog.h"
#include "watch/watchoperations.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <functional>
#include <memory>

namespace pdctl {

namespace {

using namespace pd;

constexpr int kCannotCheck = 3;

constexpr const char *kProblemsUsage = "usage: pdctl problems --profile FILE [--json] [--rounds N] [--interval S] [--timeout S]";
constexpr const char *kWatchUsage
    = "usage: pdctl watch --profile FILE [--json-lines] [--webhook URL] [--auto-eject] [--eject-after K]\n"
      "                   [--readd-after K] [--no-readd] [--max-ejections M] [--eject-window S] [--audit FILE]\n"
      "                   [--interval S] [--duration S] [--auto-heal [--heals-per-hour N] [--sim-control HOST:PORT]]\n"
      "  --auto-heal: a broken coupled DP group is ejected, restarted as one group and brought back once it\n"
      "  serves (one group at a time, at most N per hour (default 2), never while an operator acts on the\n"
      "  pool; every step audited); a busy proxy still draining it is restarted with its current lists\n"
      "  (the requests in flight then fail, counted). Implies --auto-eject";

// A positive number option ("0.5" seconds, "3" polls); false (with the usage error printed) when malformed.
bool numberOption(const VerbParser &p, const QString &name, double *value, QTextStream &err, bool whole = false)
{
    if (!p.isSet(name))
        return true;
    bool ok = false;
    const double v = p.value(name).toDouble(&ok);
    if (!ok || v <= 0 || (whole && v != double(qint64(v)))) {
        p.usageError(err, QStringLiteral("--%1 needs a positive %2, got \"%3\"")
                              .arg(name, whole ? QStringLiteral("whole number") : QStringLiteral("number"), p.value(name)));
        return false;
    }
    *value = v;
    return true;
}

void printProblems(const QList<Problem> &problems, QTextStream &out)
{
    if (problems.isEmpty()) {
        out << "no problems\n";
        return;
    }
    for (const Problem &p : problems) {
        out << problemSeverityName(p.severity).toUpper().leftJustified(9) << p.what << "  —  " << p.where << '\n'
            << "         " << p.detail << "   [" << p.key << "]\n";
        for (const QString &e : p.evidence)
            out << "           " << e << '\n';
        if (!p.nextStep.isEmpty())
            out << "         next: " << p.nextStep << '\n';
    }
}

} // namespace

int runProblemsCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("problems"), QString::fromLatin1(kProblemsUsage));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE"));
    for (const char *name : { "rounds", "interval", "timeout" })
        p.option(QString::fromLatin1(name), QStringLiteral("VALUE"));
    p.flag(QStringLiteral("json"));
    if (!p.parse(args, err))
        return kUsageExit;
    const QString path = p.value(QStringLiteral("profile"));
    ClusterWatchTiming timing;
    // Enough rounds for the thresholds: a dead engine is stale after stalePolls, a stall needs stallPolls
    // good polls after the first.
    double rounds = std::max(timing.thresholds.stalePolls, timing.thresholds.stallPolls + 1);
    double interval = 1.0, timeout = 0;
    if (!numberOption(p, QStringLiteral("rounds"), &rounds, err, true) || !numberOption(p, QStringLiteral("interval"), &interval, err)
        || !numberOption(p, QStringLiteral("timeout"), &timeout, err))
        return kUsageExit;
    const std::optional<Profile> profile = loadProfileOrReport(path, err);
    if (!profile)
        return kCannotCheck;
    timing.pollIntervalMs = timing.proxyIntervalMs = int(interval * 1000);
    ClusterWatch watch(*profile, path, timing);
    watch.start();
    const int budgetMs = timeout > 0 ? int(timeout * 1000) : int((rounds + 2) * interval * 1000) + 2 * timing.timeoutMs + 5000;
    const bool complete = spin([&] { return watch.rounds() >= rounds && watch.proxyAnswers() > 0 && watch.membershipRead(); },
                               budgetMs);
    if (!complete) {
        err << "pdctl problems: no complete picture within " << budgetMs / 1000 << " s (" << watch.rounds() << " of "
            << rounds << " poll rounds, proxy " << (watch.proxyAnswers() > 0 ? "seen" : "not seen") << ")\n";
        return kCannotCheck;
    }
    const QList<Problem> &problems = watch.triage()->problems();
    if (p.isSet(QStringLiteral("json"))) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const Problem &problem : problems)
            list.push_back(problemJson(problem, [&watch](int e) { return watch.engineId(e); }));
        const ProxyHealth &h = watch.tracker()->proxyHealth();
        nlohmann::ordered_json proxy{{"reachable", h.reachable},
                                     {"prefill_instances", h.prefillInstances},
                                     {"decode_instances", h.decodeInstances}};
        out << QString::fromStdString(nlohmann::ordered_json{{"rounds", watch.rounds()},
                                                             {"engines", watch.tracker()->engineCount()},
                                                             {"proxy", proxy},
                                                             {"problems", list},
                                                             {"exit", problemsExitCode(problems)}}
                                          .dump(2))
            << '\n';
    } else {
        printProblems(problems, out);
    }
    return problemsExitCode(problems);
}

int runWatchCommand(const QStringList &args, RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("watch"), QString::fromLatin1(kWatchUsage));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE"));
    for (const char *name : { "webhook", "eject-after", "readd-after", "max-ejections", "eject-window", "audit",
             "interval", "duration", "heals-per-hour", "sim-control" })
        p.option(QString::fromLatin1(name), QStringLiteral("VALUE"));
    for (const char *name : { "json-lines", "auto-eject", "no-readd", "auto-heal" })
        p.flag(QString::fromLatin1(name));
    if (!p.parse(args, err))
        return kUsageExit;
    const QString path = p.value(QStringLiteral("profile"));
    EjectionSettings eject;
    double ejectAfter = eject.badPolls, readdAfter = eject.readdPolls, maxEjections = eject.maxEjections;
    double window = double(eject.windowMs) / 1000.0, interval = 1.0, duration = 0;
    AutoHealSettings heal;
    double healsPerHour = heal.maxPerHour;
    if (!numberOption(p, QStringLiteral("eject-after"), &ejectAfter, err, true)
        || !numberOption(p, QStringLiteral("readd-after"), &readdAfter, err, true)
        || !numberOption(p, QStringLiteral("max-ejections"), &maxEjections, err, true)
        || !numberOption(p, QStringLiteral("eject-window"), &window, err)
        || !numberOption(p, QStringLiteral("interval"), &interval, err)
        || !numberOption(p, QStringLiteral("duration"), &duration, err)
        || !numberOption(p, QStringLiteral("heals-per-hour"), &healsPerHour, err, true))
        return kUsageExit;
    heal.enabled = p.isSet(QStringLiteral("auto-heal"));
    heal.maxPerHour = int(healsPerHour);
    heal.brokenPolls = int(ejectAfter);
    if (!heal.enabled && (p.isSet(QStringLiteral("heals-per-hour")) || p.isSet(QStringLiteral("sim-control"))))
        return p.usageError(err, QStringLiteral("--heals-per-hour and --sim-control go with --auto-heal"));
    WebhookSettings webhook;
    if (p.isSet(QStringLiteral("webhook"))) {
        webhook.url = QUrl(p.value(QStringLiteral("webhook")), QUrl::StrictMode);
        const QString scheme = webhook.url.scheme();
        if (!webhook.url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) || webhook.url.host().isEmpty())
            return p.usageError(err, QStringLiteral("--webhook needs an http:// or https:// URL, got \"%1\"").arg(p.value(QStringLiteral("webhook"))));
    }
    eject.enabled = p.isSet(QStringLiteral("auto-eject")) || heal.enabled;
    eject.badPolls = int(ejectAfter);
    eject.readdPolls = int(readdAfter);
    eject.readd = !p.isSet(QStringLiteral("no-readd"));
    eject.maxEjections = int(maxEjections);
    eject.windowMs = std::int64_t(window * 1000);
    const std::optional<Profile> profile = loadProfileOrReport(path, err);
    if (!profile)
        return kCannotCheck;

    ClusterWatchTiming timing;
    timing.pollIntervalMs = timing.proxyIntervalMs = int(interval * 1000);
    ClusterWatch watch(*profile, path, timing);
    std::unique_ptr<AuditLog> audit;
    if (eject.enabled)
        audit = std::make_unique<AuditLog>(p.isSet(QStringLiteral("audit")) ? p.value(QStringLiteral("audit")) : AuditLog::defaultPath());
    Watchdog dog(watch.tracker(), watch.triage(), watch.proxy(), watch.membership());
    dog.setEngines(watch.store()->engines());
    dog.setEjection(eject);
    dog.setAudit(audit.get());
    dog.setWebhook(webhook);
    // Auto-heal starts and stops engines: through each node's runner, or pdsim's control API.
    std::unique_ptr<EngineController> controller;
    std::unique_ptr<EngineControl> control;
    std::unique_ptr<WatchOperations> operations;
    if (heal.enabled) {
        controller = std::make_unique<EngineController>(
            *profile, std::shared_ptr<RunnerFactory>(&runners, [](RunnerFactory *) {}));
        if (const QString sim = p.value(QStringLiteral("sim-control")); !sim.isEmpty())
            control = std::make_unique<SimClusterEngineControl>(QUrl(QStringLiteral("http://") + sim));
        else
            control = std::make_unique<RunnerEngineControl>(controller.get());
        operations = std::make_unique<WatchOperations>(watch, *profile, control.get(), *audit);
        operations->attach(dog, heal);
    }
    const bool jsonLines = p.isSet(QStringLiteral("json-lines"));
    QObject::connect(&dog, &Watchdog::event, &dog, [&out, jsonLines](const QByteArray &json, const QString &line) {
        if (jsonLines)
            out << QString::fromUtf8(json) << '\n';
        else
            out << line << '\n';
        out.flush();
    });
    if (dog.webhook())
        QObject::connect(dog.webhook(), &WebhookSender::failedOne, &dog, [&err](const QString &error) {
            err << "pdctl watch: gave up posting one event: " << error << '\n';
            err.flush();
        });
    QObject::connect(&watch, &ClusterWatch::capabilitiesKnown, &dog, [&] {
        const ProxyCapabilities &caps = *watch.capabilities();
        dog.setProxyCanEject(caps.hasInstancesApi || !caps.reachable);
        const QString proxy = watch.proxy()->endpoint().base.toString();
        const QString generation = caps.reachable ? caps.generationLabel() : QStringLiteral("not answering");
        if (jsonLines) {
            out << QString::fromStdString(nlohmann::ordered_json { { "event", "started" },
                { "at", isoTime(watch.tracker()->nowMs()).toStdString() },
                { "engines", watch.tracker()->engineCount() }, { "proxy", proxy.toStdString() },
                { "generation", generation.toStdString() }, { "auto_eject", eject.enabled },
                { "auto_heal",
                    heal.enabled } }.dump())
                << '\n';
        } else {
            out << "watching " << watch.tracker()->engineCount() << " engines, proxy " << proxy << " (" << generation
                << "), every " << interval << " s; auto-eject " << (eject.enabled ? "on" : "off") << ", auto-heal "
                << (heal.enabled ? "on" : "off") << '\n';
        }
        out.flush();
    });

    // Once every engine's state is known: how many are up, so a reader (or a test) knows the watch has
    // seen the cluster before anything happens to it.
    bool saidPolled = false;
    QObject::connect(&watch, &ClusterWatch::roundDone, &dog, [&](int) {
        if (saidPolled)
            return;
        int up = 0;
        for (int i = 0; i < watch.tracker()->engineCount(); ++i) {
            const EngineState st = watch.tracker()->state(i);
            if (st == EngineState::Unknown)
                return;
            up += Watchdog::isUp(st);
        }
        saidPolled = true;
        if (jsonLines)
            out << QString::fromStdString(nlohmann::ordered_json{{"event", "polled"},
                                                                 {"at", isoTime(watch.tracker()->nowMs()).toStdString()},
                                                                 {"engines", watch.tracker()->engineCount()},
                                                                 {"up", up}}
                                              .dump())
                << '\n';
        else
            out << "every engine polled: " << up << " of " << watch.tracker()->engineCount() << " engines up\n";
        out.flush();
    });

    const InterruptScope interrupts;
    watch.start();
    QElapsedTimer running;
    running.start();
    const qint64 durationMs = qint64(duration * 1000);
    spin([&] { return interrupts.interrupted() || (durationMs > 0 && running.elapsed() >= durationMs); }, INT_MAX);
    // What is still queued for the webhook gets a last chance (bounded).
    if (dog.webhook())
        spin([&] { return dog.webhook()->queued() == 0; }, 5000);
    return 0;
}

} // namespace pdctl
