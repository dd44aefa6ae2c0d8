// SPDX-License-Identifier: MIT
// Time to recover under traffic that never lets the proxy go idle (issue 29): the demo's cluster
// (resources/profiles/demo-groups.json: 8 prefill, four coupled decode groups of 16, 48 decoders routed)
// simulated in this process by pdsim at --time-scale, N closed-loop client streams through its proxy, and
// the headless monitor and healer as `pdctl watch --auto-heal` composes them (ClusterWatch, Watchdog,
// WatchOperations, AutoHeal). Prints, for
//   A. a crashed rank of a decode group: time to the problem, to the ejection, to the group serving, to
//      routed again; client requests failed before and after the ejection;
//   B. undoing a scale-in (decode 48 -> 32 -> 48), then 32 -> 64, which needs the group still draining
//      (the way out: a proxy restart with the current lists);
//   C. Restore after a proxy restart (the operator had stopped one group on purpose first).
// Real milliseconds and simulated seconds; no assertion, figures only (docs/performance.md).
//   bench_heal [--time-scale F] [--streams N] [--startup S]
#include "audit/auditlog.h"
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "net/membershipreconciler.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/restoreplan.h"
#include "ops/scaleplan.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "state/statetracker.h"
#include "triage/triage.h"
#include "watch/clusterwatch.h"
#include "watch/watchdog.h"
#include "watch/watchoperations.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <functional>

using namespace pd;
using json = nlohmann::json;

namespace {

QTextStream out(stdout);

// Runs the event loop until `ready` or `ms` passed; whether it became ready.
bool waitFor(const std::function<bool()> &ready, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!ready() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    return ready();
}

class Control {
public:
    explicit Control(QString base)
        : m_base(std::move(base))
    {
    }
    json call(const QByteArray &method, const QString &path, const QByteArray &body = {})
    {
        QNetworkRequest request(QUrl(m_base + path));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = m_network.sendCustomRequest(request, method, body);
        waitFor([reply] { return reply->isFinished(); }, 10000);
        const QByteArray answer = reply->readAll();
        reply->deleteLater();
        return json::parse(answer.constData(), answer.constData() + answer.size(), nullptr, false);
    }
    struct Load {
        long long sent = 0, failed = 0, succeeded = 0;
    };
    Load load()
    {
        const json j = call("GET", QStringLiteral("/cluster"));
        if (!j.is_object() || !j.contains("load"))
            return {};
        const json &l = j["load"];
        return { l.value("sent", 0LL), l.value("failed", 0LL) + l.value("empty_ok", 0LL), l.value("succeeded", 0LL) };
    }

private:
    QString m_base;
    QNetworkAccessManager m_network;
};

struct Clock {
    QElapsedTimer t;
    double scale = 20;
    QString at(qint64 ms) const
    {
        return ms < 0 ? QStringLiteral("never")
                      : QStringLiteral("%1 ms (%2 s sim)").arg(ms, 6).arg(ms * scale / 1000.0, 6, 'f', 0);
    }
};

int activeDecode(const MembershipReconciler &table)
{
    return table.activeCount(Role::Decode);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Time to recover a crashed DP group, an undone scale-in and a restore, "
                       "under client streams that never let the proxy go idle"));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("time-scale"), QStringLiteral("Simulated seconds per real second (default 20)."),
        QStringLiteral("F"), QStringLiteral("20") });
    parser.addOption({ QStringLiteral("streams"), QStringLiteral("Closed-loop client streams (default 16)."),
        QStringLiteral("N"), QStringLiteral("16") });
    parser.addOption({ QStringLiteral("startup"), QStringLiteral("Simulated seconds an engine loads (default 120)."),
        QStringLiteral("S"), QStringLiteral("120") });
    parser.process(app);
    Clock clock;
    clock.scale = parser.value(QStringLiteral("time-scale")).toDouble();
    const int streams = parser.value(QStringLiteral("streams")).toInt();
    const QString path = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-groups.json");
    const ProfileLoadResult loaded = loadProfileFile(path);
    if (!loaded.profile) {
        out << "cannot load " << path << '\n';
        return 1;
    }
    const Profile &profile = *loaded.profile;
    QTemporaryDir dir;
    qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toUtf8()); // journals and audit: ours

    sim::ClusterOptions options;
    options.profile = profile;
    options.timeScale = clock.scale;
    options.startupSeconds = parser.value(QStringLiteral("startup")).toDouble();
    options.waitingRetryInterval = 1.0;
    options.jitter = false;
    options.seed = 29;
    sim::SimCluster cluster(options);
    QString error;
    if (!cluster.start(&error)) {
        out << "pdsim did not start: " << error << " (ports of the demo busy?)\n";
        return 1;
    }
    waitFor([&] { return cluster.isReady(); }, 120000);
    Control control(QStringLiteral("http://%1:%2").arg(profile.proxy.address).arg(cluster.controlPort()));
    // The demo holds group d3 back: stopped, outside the proxy.
    QStringList heldIds;
    for (const Engine &e : profile.engines())
        if (e.role == Role::Decode && !profile.proxy.decodeInstances.contains(e.id()))
            heldIds << e.id();
    {
        json ids = json::array();
        for (const QString &id : heldIds)
            ids.push_back(id.toStdString());
        control.call("POST", QStringLiteral("/cluster/engines/stop"),
            QByteArray::fromStdString(json { { "engines", ids } }.dump()));
    }

    AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
    ClusterWatchTiming timing;
    timing.pollIntervalMs = timing.proxyIntervalMs = 500;
    timing.membershipPeriodMs = 500;
    ClusterWatch watch(profile, path, timing);
    Watchdog dog(watch.tracker(), watch.triage(), watch.proxy(), watch.membership());
    dog.setEngines(watch.store()->engines());
    EjectionSettings eject;
    eject.enabled = true;
    eject.badPolls = 2;
    dog.setEjection(eject);
    dog.setAudit(&audit);
    SimClusterEngineControl engines(
        QUrl(QStringLiteral("http://%1:%2").arg(profile.proxy.address).arg(cluster.controlPort())));
    WatchOperations operations(watch, profile, &engines, audit);
    AutoHealSettings heal;
    heal.enabled = true;
    heal.brokenPolls = 2;
    heal.maxPerHour = 10;
    operations.attach(dog, heal);
    ScaleContext &ctx = operations.context();
    ctx.settings.pollMs = 200;
    ctx.settings.groupReadyTimeoutMs = 600000;
    watch.start();
    QObject::connect(&watch, &ClusterWatch::capabilitiesKnown, &dog,
        [&] { dog.setProxyCanEject(watch.capabilities()->hasInstancesApi || !watch.capabilities()->reachable); });
    const int routed = int(profile.proxy.decodeInstances.size());
    if (!waitFor([&] { return watch.membershipRead() && activeDecode(*watch.membership()) == routed; }, 180000)) {
        out << "the cluster never served its " << routed << " decoders\n";
        return 1;
    }
    // Every routed engine seen up once by the watch (an engine never seen up is left alone by auto-eject).
    waitFor(
        [&] {
            int serving = 0;
            for (int i = 0; i < watch.tracker()->engineCount(); ++i)
                serving += watch.tracker()->state(i) == EngineState::Serving;
            return serving >= routed;
        },
        120000);
    control.call(
        "POST", QStringLiteral("/cluster/load"), QByteArray::fromStdString(json { { "streams", streams } }.dump()));
    waitFor([&] { return control.load().sent > streams * 2; }, 60000);
    out << "bench_heal: " << profile.engines().size() << " engines, decode 4 coupled groups of 16 (" << routed
        << " routed), time scale " << clock.scale << ", " << streams << " client streams, engines load "
        << options.startupSeconds << " s (sim), listener interval 1 s\n\n";

    // A. A crashed rank.
    {
        const QString victim = QStringLiteral("127.0.0.6:9005");
        qint64 problem = -1, ejected = -1, serving = -1, healed = -1;
        Control::Load atEject;
        QObject::connect(&dog, &Watchdog::event, &dog, [&](const QByteArray &line, const QString &) {
            if (ejected < 0 && line.contains("\"event\":\"ejected\"")) {
                ejected = clock.t.elapsed();
                atEject = control.load();
            }
            if (healed < 0 && line.contains("\"event\":\"healed\""))
                healed = clock.t.elapsed();
        });
        QObject::connect(operations.runner(), &ScaleRunner::operationChanged, &dog, [&](ScaleOperation *op, int step) {
            if (serving < 0 && step == DpGroupOperation::WaitReady && op->steps().at(step).status == StepStatus::Done)
                serving = clock.t.elapsed();
        });
        QObject::connect(watch.triage(), &Triage::problemsChanged, &dog, [&] {
            for (const Problem &p : watch.triage()->problems())
                if (problem < 0 && p.kind == ProblemKind::GroupBroken)
                    problem = clock.t.elapsed();
        });
        const Control::Load before = control.load();
        clock.t.start();
        control.call("POST", QStringLiteral("/cluster/engines/fault"),
            QByteArray::fromStdString(json { { "engines", { victim.toStdString() } }, { "kind", "crash" } }.dump()));
        waitFor([&] { return healed >= 0; }, 600000);
        const Control::Load atHeal = control.load();
        waitFor([&] { return control.load().sent >= atHeal.sent + 4LL * streams; }, 120000);
        const Control::Load after = control.load();
        out << "A. crashed rank " << victim << " (group decode@127.0.0.6:13395)\n"
            << "   problem (group broken)   " << clock.at(problem) << '\n'
            << "   ejected                  " << clock.at(ejected) << '\n'
            << "   group serving again      " << clock.at(serving) << '\n'
            << "   routed again (healed)    " << clock.at(healed) << '\n'
            << "   client requests failed: " << atEject.failed - before.failed << " of " << atEject.sent - before.sent
            << " before the ejection, " << atHeal.failed - atEject.failed << " of " << atHeal.sent - atEject.sent
            << " from the ejection to routed (the frozen ranks' and the proxy restart's), "
            << after.failed - atHeal.failed << " of " << after.sent - atHeal.sent << " after\n";
        // Where the heal's time went: its group restart, step by step.
        for (const ScaleOperation *op : operations.runner()->operations()) {
            out << "   " << op->kind() << ' ' << op->engine().id << ": " << operationOutcomeName(op->outcome()) << '\n';
            for (const OperationStep &st : op->steps())
                out << "     " << QString(st.label).leftJustified(56) << ' '
                    << stepStatusName(st.status).leftJustified(8) << ' '
                    << (st.started.isValid() && st.finished.isValid() ? st.started.msecsTo(st.finished) : -1) << " ms  "
                    << st.detail.left(110) << '\n';
        }
        out << '\n';
    }

    // B. Undoing a scale-in, then taking back the group still draining.
    {
        auto scaleTo = [&](int target, QString *how) -> qint64 {
            QElapsedTimer t;
            t.start();
            const ScalePlan plan
                = planPoolScale(Role::Decode, target, ctx.engines, ctx.groups, *ctx.membership, {}, ctx.settings);
            if (!plan.canApply(false)) {
                *how = QStringLiteral("refused: ") + plan.blocked;
                return -1;
            }
            const auto ops = operations.runner()->apply(plan, false);
            waitFor([&] { return operations.runner()->isIdle(); }, 900000);
            QStringList outcomes;
            for (const ScaleOperation *op : ops)
                outcomes << operationOutcomeName(op->outcome());
            *how = QStringLiteral("%1 group(s) started, %2 removed, %3 returning from a drain; %4")
                       .arg(plan.groupsToStart.size())
                       .arg(plan.groupsToRemove.size())
                       .arg(plan.returningDrains.size())
                       .arg(outcomes.join(QStringLiteral(", ")));
            waitFor([&] { return activeDecode(*ctx.membership) == target; }, 60000);
            return t.elapsed();
        };
        const Control::Load before = control.load();
        QString in, back, full;
        const qint64 tIn = scaleTo(32, &in);
        const qint64 tBack = scaleTo(48, &back);
        const qint64 tDown = scaleTo(32, &in);
        const qint64 tFull = scaleTo(64, &full);
        const Control::Load after = control.load();
        out << "B. scale-in undone\n"
            << "   48 -> 32                 " << clock.at(tIn) << "  (" << in << ")\n"
            << "   32 -> 48 (undo)          " << clock.at(tBack) << "  (" << back << ")\n"
            << "   48 -> 32                 " << clock.at(tDown) << '\n'
            << "   32 -> 64                 " << clock.at(tFull) << "  (" << full << ")\n"
            << "   routed at the end: " << activeDecode(*ctx.membership)
            << " decoders; client requests failed: " << after.failed - before.failed << " of "
            << after.sent - before.sent << "\n\n";
    }

    // C. Restore after a proxy restart, one group stopped on purpose before it.
    {
        EngineActions actions(&ctx, operations.runner());
        QList<EngineRef> d1;
        for (const EngineRef &e : ctx.engines)
            if (e.node == QLatin1String("d1"))
                d1 << e;
        const EngineActionPlan stopPlan = actions.plan(EngineAction::Stop, d1);
        const auto stopped = actions.run(stopPlan, false);
        waitFor([&] { return operations.runner()->isIdle(); }, 300000);
        for (const ScaleOperation *op : stopped)
            out << "   stop " << op->engine().id << ": " << operationOutcomeName(op->outcome()) << " — "
                << op->summary() << '\n';
        if (stopped.isEmpty())
            out << "   stop not run: " << stopPlan.refusal << ' ' << stopPlan.skipReasons.join(QStringLiteral("; "))
                << '\n';
        waitFor([&] { return activeDecode(*ctx.membership) == 48; }, 60000);
        std::optional<std::pair<ProxyLists, ProxyLists>> restart;
        QObject::connect(ctx.membership, &MembershipReconciler::restartDetected, &dog,
            [&](const ProxyLists &previous, const ProxyLists &now) {
                restart = { previous, now };
            });
        const Control::Load before = control.load();
        QElapsedTimer t;
        t.start();
        control.call("POST", QStringLiteral("/cluster/proxy/stop"), "{}");
        waitFor([&] { return !ctx.membership->lastError().isEmpty(); }, 30000);
        control.call("POST", QStringLiteral("/cluster/proxy/start"), "{}");
        waitFor([&] { return restart.has_value(); }, 60000);
        const qint64 detected = t.elapsed();
        if (!restart) {
            out << "C. the restart was not detected\n";
            return 1;
        }
        const RestorePlan plan = planRestore(restart->first, restart->second, ctx, ctx.intentOf);
        operations.runner()->restore(plan);
        waitFor([&] { return operations.runner()->isIdle(); }, 600000);
        waitFor([&] { return activeDecode(*ctx.membership) == int(restart->first.decode.size()); }, 60000);
        const qint64 restored = t.elapsed();
        const Control::Load after = control.load();
        out << "C. restore after a proxy restart (group d1 stopped on purpose before it)\n"
            << "   routed before: " << restart->first.decode.size() << " decoders; the restarted proxy lists "
            << restart->second.decode.size() << "\n"
            << "   plan: " << plan.addedInstances() << " instance(s) back in " << plan.toAdd.size() << " unit(s), "
            << plan.toRemove.size() << " taken out, " << plan.keptOut.size() << " kept out\n"
            << "   restart detected         " << clock.at(detected) << '\n'
            << "   routed as before         " << clock.at(restored) << "  (" << activeDecode(*ctx.membership)
            << " decoders)\n"
            << "   client requests failed: " << after.failed - before.failed << " of " << after.sent - before.sent
            << " (the proxy's outage and the instances it routed to before the restore)\n";
    }
    control.call("POST", QStringLiteral("/cluster/load"), R"({"streams": 0})");
    cluster.shutdown();
    return 0;
}
