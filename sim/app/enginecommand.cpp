// SPDX-License-Identifier: MIT
#include "commands.h"

#include "engine/dprendezvous.h"
#include "engine/simengine.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTextStream>

#include <cmath>
#include <csignal>
#include <memory>
#include <cstdlib>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int g_signalFd[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(g_signalFd[1], &c, 1);
}

void raiseFileLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }
}

// The engine's command line, checked; kNoExit when the engine should run, else the exit status
// (0 after --help, 2 for a bad value: every bad value is named first).
constexpr int kNoExit = -1;

struct EngineCommand {
    pd::sim::EngineOptions engine;
    pd::sim::DpRendezvous::Options group; // dpSize 1: the engine is alone
    QString master;              // --dp-master as given
    int graceMs = 0;
};

int parseEngineCommand(const QStringList &arguments, EngineCommand *out)
{
    using namespace pd::sim;
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A simulated vLLM 0.9.1 OpenAI server (one engine)."));
    parser.addHelpOption();
    const QCommandLineOption port(QStringLiteral("port"), QStringLiteral("HTTP port (0: any)."), QStringLiteral("P"), QStringLiteral("8000"));
    const QCommandLineOption role(QStringLiteral("role"), QStringLiteral("prefill or decode."), QStringLiteral("ROLE"), QStringLiteral("decode"));
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("Served model name."), QStringLiteral("NAME"), QStringLiteral("deepseek_r1"));
    const QCommandLineOption rank(QStringLiteral("dp-rank"), QStringLiteral("Data-parallel rank (the engine label)."), QStringLiteral("R"), QStringLiteral("0"));
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("Listen address (127.0.0.x)."), QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption seqs(QStringLiteral("max-num-seqs"), QStringLiteral("Running requests cap (default 4 prefill, 28 decode)."), QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption maxLen(QStringLiteral("max-model-len"), QStringLiteral("Context length."), QStringLiteral("N"), QStringLiteral("32768"));
    const QCommandLineOption flavor(QStringLiteral("metrics-flavor"), QStringLiteral("0.9.1 or main."), QStringLiteral("F"), QStringLiteral("0.9.1"));
    const QCommandLineOption startup(QStringLiteral("startup-seconds"), QStringLiteral("Simulated seconds before listening."), QStringLiteral("S"), QStringLiteral("0"));
    const QCommandLineOption scale(QStringLiteral("time-scale"), QStringLiteral("Simulated seconds per real second."), QStringLiteral("F"), QStringLiteral("1"));
    const QCommandLineOption fault(QStringLiteral("fault"), QStringLiteral("Fault at start: %1.").arg(faultKindNames()),
        QStringLiteral("KIND"), QStringLiteral("none"));
    const QCommandLineOption faultMs(QStringLiteral("fault-ms"), QStringLiteral("Delay for the slow fault."), QStringLiteral("MS"), QStringLiteral("0"));
    const QCommandLineOption apiKey(QStringLiteral("api-key"), QStringLiteral("Bearer token required on /v1/*."), QStringLiteral("KEY"));
    const QCommandLineOption grace(QStringLiteral("grace-seconds"), QStringLiteral("SIGTERM grace period (real seconds)."), QStringLiteral("S"), QStringLiteral("30"));
    const QCommandLineOption noJitter(QStringLiteral("no-jitter"), QStringLiteral("Deterministic step times."));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Random seed."), QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption log(QStringLiteral("log"), QStringLiteral("Write vLLM's log (start-up, access, stats, faults) to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption hcclTimeout(QStringLiteral("hccl-exec-timeout"), QStringLiteral("HCCL_EXEC_TIMEOUT: simulated seconds before a hang or stall logs its timeout."), QStringLiteral("S"), QStringLiteral("1800"));
    const QCommandLineOption dpSize(QStringLiteral("dp-size"), QStringLiteral("Ranks of this engine's coupled DP group (1: alone)."), QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption dpMaster(QStringLiteral("dp-master"), QStringLiteral("The group's rendezvous (rank 0 listens there)."), QStringLiteral("HOST:PORT"));
    const QCommandLineOption dpJoin(QStringLiteral("dp-join-timeout"), QStringLiteral("Simulated seconds to wait for every rank of the group before exiting."), QStringLiteral("S"), QStringLiteral("1800"));
    const QCommandLineOption dpWatchdog(QStringLiteral("dp-watchdog-timeout"), QStringLiteral("Simulated seconds frozen after a rank of the group died before exiting (default: --hccl-exec-timeout)."), QStringLiteral("S"));
    parser.addOptions({port, role, model, rank, host, seqs, maxLen, flavor, startup, scale, fault, faultMs,
                       apiKey, grace, noJitter, seed, log, hcclTimeout, dpSize, dpMaster, dpJoin, dpWatchdog});
    if (!parser.parse(arguments)) {
        err << "pdsim engine: " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return 0;
    }

    EngineOptions &o = out->engine;
    bool ok = true;
    const auto number = [&](const QCommandLineOption &opt, double lo, double hi) {
        bool good = false;
        const double v = parser.value(opt).toDouble(&good);
        if (!good || v < lo || v > hi) {
            err << "pdsim engine: bad value for --" << opt.names().constFirst() << ": " << parser.value(opt) << '\n';
            ok = false;
        }
        return v;
    };
    o.port = quint16(number(port, 0, 65535));
    o.dpRank = int(number(rank, 0, 1e6));
    o.maxNumSeqs = int(number(seqs, 0, 1e5));
    o.maxModelLen = int(number(maxLen, 16, 1e7));
    o.startupSeconds = number(startup, 0, 1e6);
    o.timeScale = number(scale, 1e-3, 1e6);
    o.faultMs = int(number(faultMs, 0, 1e8));
    o.seed = quint64(number(seed, 0, 1e18));
    o.hcclExecTimeoutSeconds = int(number(hcclTimeout, 1, 1e7));
    o.logPath = parser.value(log);
    o.model = parser.value(model);
    o.apiKey = parser.value(apiKey).toUtf8();
    o.timing.jitter = !parser.isSet(noJitter);
    const QString r = parser.value(role);
    if (r == QLatin1String("prefill"))
        o.role = EngineRole::Prefill;
    else if (r != QLatin1String("decode")) {
        err << "pdsim engine: --role must be prefill or decode\n";
        ok = false;
    }
    const QString f = parser.value(flavor);
    if (f == QLatin1String("main"))
        o.flavor = MetricsFlavor::Main;
    else if (f != QLatin1String("0.9.1")) {
        err << "pdsim engine: --metrics-flavor must be 0.9.1 or main\n";
        ok = false;
    }
    const auto fk = faultKindFromName(parser.value(fault));
    if (!fk) {
        err << "pdsim engine: unknown --fault " << parser.value(fault) << '\n';
        ok = false;
    } else {
        o.fault = *fk;
    }
    o.host = QHostAddress(parser.value(host));
    if (o.host.isNull() || !o.host.isLoopback()) {
        err << "pdsim engine: --host must be a loopback address (127.0.0.x)\n";
        ok = false;
    }
    out->graceMs = int(number(grace, 0, 86400) * 1000);
    DpRendezvous::Options &group = out->group;
    group.dpSize = int(number(dpSize, 1, 1e5));
    group.dpRank = o.dpRank;
    group.timeScale = o.timeScale;
    group.joinTimeoutSeconds = number(dpJoin, 1e-3, 1e7);
    group.watchdogTimeoutSeconds = parser.isSet(dpWatchdog) ? number(dpWatchdog, 1e-3, 1e7) : o.hcclExecTimeoutSeconds;
    out->master = parser.value(dpMaster);
    const QString &master = out->master;
    if (group.dpSize > 1) {
        const qsizetype colon = master.lastIndexOf(QLatin1Char(':'));
        bool portOk = false;
        const int masterPort = colon > 0 ? master.mid(colon + 1).toInt(&portOk) : 0;
        group.masterHost = QHostAddress(master.left(colon));
        group.masterPort = quint16(masterPort);
        if (!portOk || masterPort <= 0 || masterPort > 65535 || group.masterHost.isNull() || !group.masterHost.isLoopback()) {
            err << "pdsim engine: --dp-size > 1 needs --dp-master HOST:PORT on a loopback address\n";
            ok = false;
        }
        if (o.dpRank >= group.dpSize) {
            err << "pdsim engine: --dp-rank must be below --dp-size\n";
            ok = false;
        }
    }
    return ok ? kNoExit : 2;
}

} // namespace

int pd::sim::runEngineCommand(const QStringList &arguments)
{
    EngineCommand command;
    if (const int exitCode = parseEngineCommand(arguments, &command); exitCode != kNoExit)
        return exitCode;
    QTextStream err(stderr);
    const EngineOptions &o = command.engine;
    const DpRendezvous::Options &group = command.group;
    const QString &master = command.master;
    const int graceMs = command.graceMs;
    const bool coupled = group.dpSize > 1;

    raiseFileLimit();
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFd) != 0) {
        err << "pdsim engine: socketpair failed\n";
        return 1;
    }
    QSocketNotifier notifier(g_signalFd[0], QSocketNotifier::Read);
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);

    SimEngine engine(o);
    QObject::connect(&notifier, &QSocketNotifier::activated, &engine, [&engine, graceMs] {
        char c = 0;
        [[maybe_unused]] const auto n = ::read(g_signalFd[0], &c, 1);
        QTextStream(stderr) << "pdsim engine: terminating, finishing in-flight requests\n";
        engine.shutdown(graceMs);
    });
    QObject::connect(&engine, &SimEngine::stopped, &engine, [] { QCoreApplication::exit(0); });
    // A coupled DP group across processes: the engine waits in the rendezvous before it loads and listens.
    bool groupExit = false;
    std::unique_ptr<DpRendezvous> rendezvous;
    if (coupled) {
        engine.setGroupGated(true);
        rendezvous = std::make_unique<DpRendezvous>(group);
        QObject::connect(rendezvous.get(), &DpRendezvous::formed, &engine, [&engine] { engine.groupFormed(); });
        QObject::connect(rendezvous.get(), &DpRendezvous::broken, &engine, [&engine](int deadRank) {
            QTextStream(stderr) << "pdsim engine: DP rank " << deadRank << " died, this rank is blocked\n";
            engine.setGroupBlocked(true);
        });
        QObject::connect(rendezvous.get(), &DpRendezvous::joinTimedOut, &engine, [&](int joined) {
            groupExit = true;
            engine.exitJoinTimeout(int(std::lround(group.joinTimeoutSeconds)), joined, group.dpSize, master);
        });
        QObject::connect(rendezvous.get(), &DpRendezvous::watchdogFired, &engine, [&](int deadRank) {
            groupExit = true;
            engine.exitWatchdog(int(std::lround(group.watchdogTimeoutSeconds)), deadRank);
        });
    }
    QObject::connect(&engine, &SimEngine::crashed, &engine, [&groupExit] {
        if (groupExit) { // the group never formed / its collective timed out: the process takes itself down
            QTextStream(stderr) << "pdsim engine: DP group failed, exiting\n";
            std::_Exit(1);
        }
        QTextStream(stderr) << "pdsim engine: simulated crash\n";
        std::_Exit(134);
    });
    QObject::connect(&engine, &SimEngine::failed, &engine, [](const QString &message) {
        QTextStream(stderr) << "pdsim engine: " << message << '\n';
        QCoreApplication::exit(1);
    });
    QObject::connect(&engine, &SimEngine::ready, &engine, [&engine, &o] {
        QTextStream(stdout) << "ready engine " << engineRoleName(o.role) << " dp-rank " << o.dpRank
                            << " on " << o.host.toString() << ':' << engine.port() << Qt::endl;
    });
    engine.start();
    if (rendezvous) {
        QString error;
        if (!rendezvous->start(&error)) {
            err << "pdsim engine: " << error << '\n';
            return 1;
        }
    }
    const int rc = QCoreApplication::exec();
    ::close(g_signalFd[0]);
    ::close(g_signalFd[1]);
    return rc;
}
