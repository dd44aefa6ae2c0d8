// SPDX-License-Identifier: MIT
#include "clustersim/clusteroptions.h"

#include "cluster/profileformat.h"
#include "cluster/profilevalidator.h"

#include <QCommandLineParser>

namespace pd::sim {

namespace {

bool isLoopback(const QString &host)
{
    QHostAddress a;
    return host == QLatin1String("localhost") || (a.setAddress(host) && a.isLoopback());
}

// 127.0.0.2, 127.0.0.3, ... skipping .0 and .255 of every /24.
QString loopbackAddress(int index)
{
    quint32 n = (127u << 24) + 2u;
    for (int i = 0; i < index; ++i) {
        ++n;
        if ((n & 0xff) == 255)
            n += 2;
    }
    return QHostAddress(n).toString();
}

} // namespace

AddressMap::AddressMap(const pd::Profile &profile, bool loopback)
{
    int next = 0;
    for (const pd::Node &node : profile.nodes) {
        QString host = node.address;
        if (loopback && !isLoopback(host)) {
            host = m_byAddress.value(node.address);
            if (host.isEmpty())
                host = loopbackAddress(next++);
        }
        if (host == QLatin1String("localhost"))
            host = QStringLiteral("127.0.0.1");
        m_nodes.append(host);
        m_byAddress.insert(node.address, host);
    }
    m_proxy = profile.proxy.address;
    if (loopback && !isLoopback(m_proxy))
        m_proxy = m_byAddress.value(m_proxy, QStringLiteral("127.0.0.1"));
    if (m_proxy == QLatin1String("localhost"))
        m_proxy = QStringLiteral("127.0.0.1");
    m_byAddress.insert(profile.proxy.address, m_proxy);
}

QString AddressMap::mapInstance(const QString &hostPort) const
{
    const qsizetype colon = hostPort.lastIndexOf(QLatin1Char(':'));
    const QString host = hostPort.left(colon);
    return m_byAddress.value(host, host) + hostPort.mid(colon);
}

std::optional<ClusterOptions> ClusterOptions::fromArguments(const QStringList &arguments, QString *error, int *exitCode)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Every engine and the proxy of a cluster profile in one process."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption profile(QStringLiteral("profile"), QStringLiteral("Cluster profile (JSON)."), QStringLiteral("FILE"));
    const QCommandLineOption loopback(QStringLiteral("loopback"), QStringLiteral("Run node N on 127.0.0.(N+2) and the proxy on 127.0.0.1."));
    const QCommandLineOption scale(QStringLiteral("time-scale"), QStringLiteral("Simulated seconds per real second."), QStringLiteral("F"), QStringLiteral("1"));
    const QCommandLineOption startup(QStringLiteral("startup-seconds"), QStringLiteral("Simulated weights loading per engine."), QStringLiteral("S"), QStringLiteral("0"));
    const QCommandLineOption load(QStringLiteral("load"), QStringLiteral("Background client requests per second through the proxy."), QStringLiteral("RPS"), QStringLiteral("0"));
    const QCommandLineOption inflight(QStringLiteral("load-max-inflight"), QStringLiteral("Bound on concurrent client requests."), QStringLiteral("N"), QStringLiteral("256"));
    const QCommandLineOption interval(QStringLiteral("waiting-retry-interval"), QStringLiteral("Override the proxy's NodeListener period."), QStringLiteral("S"));
    const QCommandLineOption flavor(QStringLiteral("metrics-flavor"), QStringLiteral("0.9.1 or main."), QStringLiteral("F"), QStringLiteral("0.9.1"));
    const QCommandLineOption threads(QStringLiteral("threads"), QStringLiteral("Engine worker threads (0: automatic)."), QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption control(QStringLiteral("control-port"), QStringLiteral("Control API port on the proxy's address (0: any)."), QStringLiteral("P"), QStringLiteral("0"));
    const QCommandLineOption noJitter(QStringLiteral("no-jitter"), QStringLiteral("Deterministic step times."));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Random seed."), QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption logDir(QStringLiteral("log-dir"),
        QStringLiteral("Write every engine's and the proxy's log under DIR (engines/<node>-<port>.log, proxy/proxy-<port>.log)."),
        QStringLiteral("DIR"));
    const QCommandLineOption joinTimeout(QStringLiteral("dp-join-timeout"),
        QStringLiteral("Simulated seconds a coupled DP group waits for all its ranks before the started ones exit."),
        QStringLiteral("S"), QStringLiteral("1800"));
    const QCommandLineOption watchdogTimeout(QStringLiteral("dp-watchdog-timeout"),
        QStringLiteral("Simulated seconds the survivors of a broken DP group stay frozen before they exit (default: the "
                       "role's HCCL_EXEC_TIMEOUT, else 1800)."),
        QStringLiteral("S"));
    const QCommandLineOption noCoupling(QStringLiteral("no-dp-coupling"),
        QStringLiteral("Run every rank independently, whatever the profile's dp_coupling says."));
    parser.addOptions({profile, loopback, scale, startup, load, inflight, interval, flavor, threads, control, noJitter, seed,
        logDir, joinTimeout, watchdogTimeout, noCoupling});
    *exitCode = 2;
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(help)) {
        *error = parser.helpText();
        *exitCode = 0;
        return std::nullopt;
    }
    if (!parser.isSet(profile)) {
        *error = QStringLiteral("--profile FILE is required\n\n") + parser.helpText();
        return std::nullopt;
    }
    ClusterOptions o;
    const QString path = parser.value(profile);
    const pd::ProfileLoadResult loaded = pd::loadProfileFile(path);
    if (!loaded.profile) {
        QStringList lines;
        for (const pd::ProfileError &e : loaded.errors)
            lines.append(e.format(path));
        *error = lines.join(QLatin1Char('\n'));
        *exitCode = 1;
        return std::nullopt;
    }
    o.profile = *loaded.profile;
    QStringList problems;
    for (const pd::ValidationIssue &issue : pd::validateProfile(o.profile)) {
        if (issue.severity == pd::Severity::Error)
            problems.append(QStringLiteral("%1: %2: %3").arg(path, issue.pointer, issue.message));
    }
    if (!problems.isEmpty()) {
        *error = problems.join(QLatin1Char('\n'));
        *exitCode = 1;
        return std::nullopt;
    }
    auto number = [&](const QCommandLineOption &opt, double lo, double hi, double *out) {
        bool ok = false;
        const double v = parser.value(opt).toDouble(&ok);
        if (!ok || v < lo || v > hi) {
            problems.append(QStringLiteral("--%1: expected a number in %2..%3, got \"%4\"")
                                .arg(opt.names().constFirst()).arg(lo).arg(hi).arg(parser.value(opt)));
            return;
        }
        *out = v;
    };
    double v = 0;
    o.loopback = parser.isSet(loopback);
    number(scale, 0.001, 10000, &o.timeScale);
    number(startup, 0, 86400, &o.startupSeconds);
    number(load, 0, 100000, &o.loadRps);
    v = o.loadMaxInFlight;
    number(inflight, 1, 100000, &v);
    o.loadMaxInFlight = int(v);
    if (parser.isSet(interval)) {
        double s = 0;
        number(interval, 0.01, 86400, &s);
        o.waitingRetryInterval = s;
    }
    const QString f = parser.value(flavor);
    if (f == QLatin1String("main"))
        o.flavor = MetricsFlavor::Main;
    else if (f != QLatin1String("0.9.1"))
        problems.append(QStringLiteral("--metrics-flavor: expected 0.9.1 or main"));
    v = 0;
    number(threads, 0, 256, &v);
    o.threads = int(v);
    v = 0;
    number(control, 0, 65535, &v);
    o.controlPort = quint16(v);
    o.jitter = !parser.isSet(noJitter);
    v = 1;
    number(seed, 0, 1e15, &v);
    o.seed = quint64(v);
    o.dpCoupling = !parser.isSet(noCoupling);
    number(joinTimeout, 0.001, 1e7, &o.dpJoinTimeoutSeconds);
    if (parser.isSet(watchdogTimeout)) {
        double s = 1800;
        number(watchdogTimeout, 0.001, 1e7, &s);
        o.dpWatchdogTimeoutSeconds = s;
    }
    if (parser.isSet(logDir)) {
        o.logDir = parser.value(logDir);
        if (o.logDir.isEmpty())
            problems.append(QStringLiteral("--log-dir: expected a directory"));
    }
    if (!problems.isEmpty()) {
        *error = problems.join(QLatin1Char('\n'));
        return std::nullopt;
    }
    *exitCode = 0;
    return o;
}

} // namespace pd::sim
