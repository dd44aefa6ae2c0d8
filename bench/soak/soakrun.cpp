// SPDX-License-Identifier: MIT
#include "soakrun.h"

#include "cluster/profileformat.h"
#include "httpcall.h"
#include "pdsimcluster.h"
#include "topology/syntheticprofile.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <QTextStream>

#include <cstdio>

namespace soak {

namespace {

using pd::test::httpCall;

// The synthetic profile of N engines on loopback: node n on 127.0.1.(n+1), the proxy on 127.0.0.9:18000.
// The nodes' SSH port is 9 (discard, closed here): the console's process checks are refused at once and
// never look at this machine's processes. Ranks run independently: the soak faults one engine at a time
// and watches the console, not the DP-group coupling (tst_stategroups, tst_groupstart64 do).
pd::Profile soakProfile(int engines)
{
    pd::Profile profile = pd::syntheticProfile(engines, 16);
    profile.name = QStringLiteral("soak-%1").arg(engines);
    for (qsizetype n = 0; n < profile.nodes.size(); ++n) {
        pd::Node &node = profile.nodes[n];
        node.address = QStringLiteral("127.0.%1.%2").arg(1 + n / 250).arg(n % 250 + 1);
        node.transport = pd::NodeTransport::Ssh;
        node.ssh.port = 9;
    }
    for (qsizetype n = 0; n < profile.nodes.size(); ++n)
        for (pd::EngineGroup &group : profile.nodes[n].engineGroups)
            group.dpAddress = profile.nodes[n].role == pd::Role::Prefill ? profile.nodes.first().address
                                                                         : profile.nodes.last().address;
    profile.prefill.dpCoupling = pd::DpCoupling::Independent;
    profile.decode.dpCoupling = pd::DpCoupling::Independent;
    profile.proxy.address = QStringLiteral("127.0.0.9");
    profile.proxy.port = 18000;
    return profile;
}

void waitMs(int ms)
{
    QTest::qWait(ms);
}

qint64 wallMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Serving engines in the probe's newest sample (-1 before the first).
int servingNow(const QString &samplesPath)
{
    QFile f(samplesPath);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    if (lines.size() < 2)
        return -1;
    return lines.last().split(',').value(6).toInt();
}

// A decode engine with requests running now, searched from `start` through the whole pool: a stall shows
// only where work is frozen. Empty when no engine has any (the stall is then injected on the rotation's
// pick and marked not observable).
QString engineWithWork(const QStringList &decode, int start)
{
    static const QRegularExpression running(
        QStringLiteral("^vllm:num_requests_running\\{[^}]*\\} ([0-9.e+]+)"), QRegularExpression::MultilineOption);
    for (int k = 0; k < decode.size(); ++k) {
        const QString id = decode.at((start + k) % decode.size());
        const pd::test::HttpAnswer a = httpCall("GET", QStringLiteral("http://%1/metrics").arg(id), {}, 3000);
        const auto m = running.match(QString::fromUtf8(a.body));
        if (a.status == 200 && m.hasMatch() && m.captured(1).toDouble() > 0)
            return id;
    }
    return {};
}

class FaultLog {
public:
    explicit FaultLog(const QString &path)
        : m_file(path)
    {
        if (m_file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            m_file.write("wall_ms,action,kind,target,status\n");
    }
    // `atMs`: when the action began (the control request's send), not when its answer came back: the
    // console may see a fault before the request returns (a proxy restart is down at once).
    void write(const QString &action, const QString &kind, const QString &target, int status, qint64 atMs = wallMs())
    {
        QTextStream(&m_file) << atMs << ',' << action << ',' << kind << ',' << target << ',' << status << '\n';
        m_file.flush();
    }

private:
    QFile m_file;
};

struct Target {
    QString kind;
    QString engine; // empty for the proxy
};

// Injects one fault; the HTTP status of the control call (200 when taken).
int inject(const pd::test::PdsimCluster &sim, const Target &t, const RunOptions &options)
{
    if (t.kind == QLatin1String("proxy-restart"))
        return httpCall("POST", sim.controlUrl(QStringLiteral("/cluster/proxy/stop")), "{}").status;
    const QByteArray body = QStringLiteral(R"({"engines": ["%1"], "kind": "%2", "ms": %3})")
                                .arg(t.engine, t.kind)
                                .arg(t.kind == QLatin1String("slow") ? options.slowMs : 0)
                                .toUtf8();
    return httpCall("POST", sim.controlUrl(QStringLiteral("/cluster/engines/fault")), body).status;
}

int clear(const pd::test::PdsimCluster &sim, const Target &t)
{
    if (t.kind == QLatin1String("proxy-restart"))
        return httpCall("POST", sim.controlUrl(QStringLiteral("/cluster/proxy/start")), "{}").status;
    const QByteArray engines = QStringLiteral(R"({"engines": ["%1"])").arg(t.engine).toUtf8();
    if (t.kind == QLatin1String("crash"))
        return httpCall("POST", sim.controlUrl(QStringLiteral("/cluster/engines/start")), engines + "}").status;
    return httpCall("POST", sim.controlUrl(QStringLiteral("/cluster/engines/fault")), engines + R"(, "kind": "none"})")
        .status;
}

} // namespace

QStringList faultKinds()
{
    return { QStringLiteral("crash"), QStringLiteral("hang"), QStringLiteral("stall"), QStringLiteral("http500"),
        QStringLiteral("slow"), QStringLiteral("big-metrics"), QStringLiteral("proxy-restart") };
}

bool run(const RunOptions &options, QString *error)
{
    QDir().mkpath(options.outDir);
    const QDir out(options.outDir);
    const pd::Profile profile = soakProfile(options.engines);
    const QString profilePath = out.filePath(QStringLiteral("profile.json"));
    if (!pd::saveProfileFile(profile, profilePath, error))
        return false;
    QStringList decode;
    for (const pd::Engine &e : profile.engines())
        if (e.role == pd::Role::Decode)
            decode.append(e.id());

    pd::test::PdsimCluster sim;
    sim.setErrorFile(out.filePath(QStringLiteral("pdsim.stderr")));
    *error = sim.start(profilePath,
        { QStringLiteral("--startup-seconds"), QString::number(options.startupSeconds), QStringLiteral("--load"),
            QString::number(options.loadRps), QStringLiteral("--seed"), QStringLiteral("7") });
    if (!error->isEmpty())
        return false;
    std::printf("soak: pdsim cluster of %d engines ready, control %s, load %.0f req/s\n", options.engines,
        qPrintable(sim.control()), options.loadRps);

    QProcess console;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("PDCONSOLE_SOAK_DIR"), options.outDir);
    for (const char *xdg : { "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME" })
        env.insert(QString::fromLatin1(xdg), out.filePath(QStringLiteral("home/") + QString::fromLatin1(xdg)));
    console.setProcessEnvironment(env);
    console.setStandardErrorFile(out.filePath(QStringLiteral("console.stderr")));
    console.setStandardOutputFile(out.filePath(QStringLiteral("console.stdout")));
    console.start(options.console,
        { QStringLiteral("--profile"), profilePath, QStringLiteral("--view"), QStringLiteral("pools") });
    if (!console.waitForStarted(10000)) {
        *error = QStringLiteral("the console did not start: ") + console.errorString();
        return false;
    }
    const QString samples = out.filePath(QStringLiteral("samples.csv"));
    QElapsedTimer ready;
    ready.start();
    while (servingNow(samples) < options.engines && ready.elapsed() < 300000 && console.state() == QProcess::Running)
        waitMs(1000);
    std::printf("soak: %d of %d engines serving after %lld s; warming up %d s\n", servingNow(samples), options.engines,
        ready.elapsed() / 1000, options.warmupSeconds);
    waitMs(options.warmupSeconds * 1000);

    FaultLog faults(out.filePath(QStringLiteral("faults.csv")));
    faults.write(QStringLiteral("start"), {}, {}, 0);
    const QStringList kinds = faultKinds();
    QElapsedTimer soakClock;
    soakClock.start();
    const qint64 soakMs = qint64(options.minutes * 60000);
    for (int k = 0; soakClock.elapsed() + qint64(options.faultEverySeconds) * 1000 <= soakMs; ++k) {
        if (console.state() != QProcess::Running) {
            *error = QStringLiteral("the console exited during the soak (exit code %1)").arg(console.exitCode());
            return false;
        }
        const qint64 slotStart = soakClock.elapsed();
        Target t { kinds.at(k % kinds.size()), {} };
        bool observable = true;
        if (t.kind == QLatin1String("stall")) {
            t.engine = engineWithWork(decode, k * 37);
            observable = !t.engine.isEmpty();
        }
        if (t.kind != QLatin1String("proxy-restart") && t.engine.isEmpty())
            t.engine = decode.at((k * 37) % decode.size());
        const qint64 injectAt = wallMs();
        const int status = inject(sim, t, options);
        // -1: injected, but on an engine with nothing running, where no console could see a stall.
        faults.write(QStringLiteral("inject"), t.kind, t.engine, observable ? status : -1, injectAt);
        std::printf("soak: %3lld min  %-13s %s\n", soakClock.elapsed() / 60000, qPrintable(t.kind),
            qPrintable(t.engine.isEmpty() ? QStringLiteral("proxy") : t.engine));
        std::fflush(stdout);
        waitMs(int(slotStart + options.faultForSeconds * 1000 - soakClock.elapsed()));
        const qint64 clearAt = wallMs();
        faults.write(QStringLiteral("clear"), t.kind, t.engine, clear(sim, t), clearAt);
        waitMs(int(slotStart + options.faultEverySeconds * 1000 - soakClock.elapsed()));
    }
    faults.write(QStringLiteral("end"), {}, {}, 0);
    waitMs(11000); // one more probe sample after the last fault's window
    console.terminate();
    if (!console.waitForFinished(15000)) {
        console.kill();
        console.waitForFinished(5000);
    }
    sim.stop();
    return true;
}

} // namespace soak
