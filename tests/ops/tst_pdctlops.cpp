// SPDX-License-Identifier: MIT
// pdctl engine/proxy/script as an operator runs them, against pdsim engines on 127.0.0.x through the
// local runner; a node on another machine fails with its name while the SSH runner is not wired.
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "fakedocker.h"
#include "pdctlrun.h"

#include "opsfixture.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = pd::test::PdctlRun;

Run pdctl(const QStringList &args)
{
    return pd::test::runPdctl(args, { 90000, {} });
}

QList<qint64> pidsIn(const QString &text)
{
    QList<qint64> pids;
    static const QRegularExpression pid(QStringLiteral("PID (\\d+)"));
    for (auto it = pid.globalMatch(text); it.hasNext();)
        pids << it.next().captured(1).toLongLong();
    return pids;
}

} // namespace

class TestPdctlOps : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_profilePath;
    pd::Profile m_profile;
    QList<qint64> m_pids;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("PDSIM", PD_BINARY_DIR "/sim/pdsim");
        // pdctl's default audit log (the console's) goes under this test's own directory.
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        qputenv("PDSIM_ENGINE_ARGS", "--grace-seconds 1");
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(QStringLiteral(PD_SOURCE_DIR "/resources/sim/run_dp_template.sh"),
            m_dir.filePath(QStringLiteral("run_dp_template.sh"))));
        QFile wrapper(m_dir.filePath(QStringLiteral("run_proxy.sh")));
        QVERIFY(wrapper.open(QIODevice::WriteOnly));
        wrapper.write("#!/bin/bash\nexec \"$PDSIM\" proxy --generation main \"$@\"\n");
        wrapper.close();
        m_profile.name = QStringLiteral("pdctl-ops");
        m_profile.runDir = m_dir.path();
        m_profile.prefill.modelPath = QStringLiteral("m");
        m_profile.decode.modelPath = QStringLiteral("m");
        m_profile.prefill.kvTransferConfig = { { "kv_role", "kv_producer" } };
        m_profile.decode.kvTransferConfig = { { "kv_role", "kv_consumer" } };
        m_profile.nodes = { pdtest::loopbackNode(QStringLiteral("p1"), QStringLiteral("127.0.0.55"), pd::Role::Prefill,
                                1, 1, 0, QStringLiteral("127.0.0.55")),
            pdtest::loopbackNode(QStringLiteral("d1"), QStringLiteral("127.0.0.56"), pd::Role::Decode, 2, 2, 0,
                QStringLiteral("127.0.0.56")) };
        m_profile.nodes[0].engineGroups[0].dpPort = 13400;
        m_profile.nodes[1].engineGroups[0].dpPort = 13401;
        m_profile.proxy.address = QStringLiteral("127.0.0.57");
        m_profile.proxy.bindHost = QStringLiteral("127.0.0.57");
        m_profile.proxy.port = pdtest::freePortRun(m_profile.proxy.address, 1);
        m_profile.proxy.scriptPath = QStringLiteral("run_proxy.sh");
        m_profilePath = m_dir.filePath(QStringLiteral("profile.json"));
        QString error;
        QVERIFY2(pd::saveProfileFile(m_profile, m_profilePath, &error), qPrintable(error));
        const Run check = pdctl({ QStringLiteral("profile"), QStringLiteral("validate"), m_profilePath });
        QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
    }

    void cleanupTestCase()
    {
        for (const qint64 pid : std::as_const(m_pids))
            pdtest::killSessionLeader(pid);
    }

    void engineStartStatusStop()
    {
        const Run start
            = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), m_profilePath,
                QStringLiteral("--node"), QStringLiteral("d1"), QStringLiteral("--verify"), QStringLiteral("1") });
        m_pids += pidsIn(start.out);
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        QVERIFY2(start.out.contains(QLatin1String("start 2 processes: 2 ok, 0 failed")), qPrintable(start.out));
        const QList<qint64> pids = pidsIn(start.out);
        QCOMPARE(pids.size(), 2);
        const pd::Engine first = m_profile.engines(pd::Role::Decode).first();
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(first.host, first.port, "/health"), 200, 15000);

        const Run status
            = pdctl({ QStringLiteral("engine"), QStringLiteral("status"), QStringLiteral("--profile"), m_profilePath });
        QCOMPARE(status.exitCode, 0);
        for (int i = 0; i < 2; ++i) {
            const QString row
                = QStringLiteral("%1 +d1 +running +%2")
                      .arg(QRegularExpression::escape(QStringLiteral("127.0.0.56:%1").arg(first.port + i)));
            const bool listed = status.out.contains(QRegularExpression(row.arg(pids.at(0))))
                || status.out.contains(QRegularExpression(row.arg(pids.at(1))));
            QVERIFY2(listed, qPrintable(status.out));
        }
        QVERIFY2(status.out.contains(QRegularExpression(QStringLiteral("127\\.0\\.0\\.55:\\d+ +p1 +stopped +-"))),
            qPrintable(status.out));

        const Run stop = pdctl({ QStringLiteral("engine"), QStringLiteral("stop"), QStringLiteral("--profile"),
            m_profilePath, QStringLiteral("--engine"), first.id(), QStringLiteral("--engine"),
            QStringLiteral("d1:%1").arg(first.port + 1) });
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.out + stop.err));
        for (const qint64 pid : pids)
            QVERIFY(pdtest::processGone(pid));

        // Both actions are in the console's audit log, with the intents a console watching it reads: the
        // started engines' silence is news (none), the stopped ones are stopped on purpose (stop).
        const QString auditPath = m_dir.filePath(QStringLiteral("data/pdconsole/audit.jsonl"));
        QVERIFY2(stop.out.contains(QStringLiteral("audit log: ") + auditPath), qPrintable(stop.out));
        const pd::AuditReadResult audit = pd::readAuditLog(auditPath);
        QVERIFY2(audit.opened && audit.problems.isEmpty(), qPrintable(audit.error + audit.problems.join(QLatin1Char('\n'))));
        QStringList lines;
        for (const pd::AuditEntry &e : audit.entries)
            lines << QStringLiteral("%1 %2 %3").arg(e.action, e.target, e.result);
        const QString second = QStringLiteral("127.0.0.56:%1").arg(first.port + 1);
        const QStringList expected{
            QStringLiteral("engine.start decode %1 ok").arg(first.id()),
            QStringLiteral("intent.none decode %1 ok").arg(first.id()),
            QStringLiteral("intent.stop decode %1 ok").arg(first.id()),
            QStringLiteral("intent.stop decode %1 ok").arg(second),
            QStringLiteral("engine.stop decode %1 ok").arg(first.id()),
            QStringLiteral("engine.stop decode %1 ok").arg(second),
        };
        for (const QString &line : expected)
            QVERIFY2(lines.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + lines.join(QLatin1Char('\n'))));
        // The stop intents come before the stops, and nothing after them says the engines run again.
        QVERIFY(lines.indexOf(QStringLiteral("intent.stop decode %1 ok").arg(first.id()))
                < lines.indexOf(QStringLiteral("engine.stop decode %1 ok").arg(first.id())));
        QCOMPARE(lines.lastIndexOf(QStringLiteral("intent.none decode %1 ok").arg(first.id())),
                 lines.indexOf(QStringLiteral("intent.none decode %1 ok").arg(first.id())));
        QVERIFY(lines.indexOf(QStringLiteral("intent.none decode %1 ok").arg(first.id()))
                < lines.indexOf(QStringLiteral("intent.stop decode %1 ok").arg(first.id())));
        // A status changes nothing and writes nothing.
        QVERIFY(!status.out.contains(QStringLiteral("audit log:")));
    }

    void proxyStartStop()
    {
        const Run start = pdctl({ QStringLiteral("proxy"), QStringLiteral("start"), QStringLiteral("--profile"),
            m_profilePath, QStringLiteral("--verify"), QStringLiteral("1") });
        m_pids += pidsIn(start.out);
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        QCOMPARE(pdtest::httpStatus(m_profile.proxy.address, m_profile.proxy.port, "/healthcheck"), 200);
        const Run stop
            = pdctl({ QStringLiteral("proxy"), QStringLiteral("stop"), QStringLiteral("--profile"), m_profilePath });
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.out + stop.err));
        QVERIFY(pdtest::processGone(pidsIn(start.out).value(0)));
    }

    void failuresAndUsage()
    {
        const Run unknown = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"),
            m_profilePath, QStringLiteral("--engine"), QStringLiteral("nope:1") });
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains(QLatin1String("nope:1")));
        QCOMPARE(pdctl({ QStringLiteral("engine"), QStringLiteral("launch") }).exitCode, 2);
        const Run noProfile = pdctl({ QStringLiteral("engine"), QStringLiteral("start") });
        QCOMPARE(noProfile.exitCode, 2); // a usage error, like every verb's
        QVERIFY2(noProfile.err.contains(QLatin1String("--profile FILE is required\nusage: pdctl engine")), qPrintable(noProfile.err));

        // A node on another machine: refused naming it (no SSH runner in this build yet).
        pd::Profile remote = m_profile;
        remote.nodes[0].address = QStringLiteral("192.0.2.7");
        remote.nodes[0].localIp.clear();
        remote.nodes[0].engineGroups[0].dpAddress = QStringLiteral("192.0.2.7");
        const QString path = m_dir.filePath(QStringLiteral("remote.json"));
        QString error;
        QVERIFY(pd::saveProfileFile(remote, path, &error));
        const Run r = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), path,
            QStringLiteral("--node"), QStringLiteral("p1") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1String("p1 (192.0.2.7)")), qPrintable(r.out + r.err));
    }

    // Pdctl scale without --sim-control starts and stops engines the way the console
    // does, through each node's runner (here the local one runs the pdsim stand-in template), verified
    // at the proxy's /healthcheck.
    void scaleThroughTheNodesRunners()
    {
        pd::Profile profile = m_profile;
        profile.name = QStringLiteral("pdctl-scale");
        profile.decode.dpCoupling = pd::DpCoupling::Independent; // two dense replicas: scaled one by one
        profile.proxy.port = pdtest::freePortRun(profile.proxy.address, 1);
        const QString path = m_dir.filePath(QStringLiteral("scale.json"));
        QString error;
        QVERIFY2(pd::saveProfileFile(profile, path, &error), qPrintable(error));
        const Run engines = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), path,
            QStringLiteral("--verify"), QStringLiteral("1") });
        m_pids += pidsIn(engines.out);
        QVERIFY2(engines.exitCode == 0, qPrintable(engines.out + engines.err));
        const Run proxy = pdctl({ QStringLiteral("proxy"), QStringLiteral("start"), QStringLiteral("--profile"), path,
            QStringLiteral("--verify"), QStringLiteral("1") });
        m_pids += pidsIn(proxy.out);
        QVERIFY2(proxy.exitCode == 0, qPrintable(proxy.out + proxy.err));
        const auto decodeInstances = [&profile] {
            QByteArray body;
            if (pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck", &body) != 200)
                return -1;
            const QRegularExpression count(QStringLiteral("\"decode_instances\":\\s*(\\d+)"));
            const auto m = count.match(QString::fromUtf8(body));
            return m.hasMatch() ? m.captured(1).toInt() : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(decodeInstances(), 2, 15000);
        for (const pd::Engine &e : profile.engines())
            QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(e.host, e.port, "/health"), 200, 30000);

        const QString audit = m_dir.filePath(QStringLiteral("scale-audit.jsonl"));
        const Run down = pdctl({ QStringLiteral("scale"), QStringLiteral("--profile"), path, QStringLiteral("--pool"),
            QStringLiteral("decode"), QStringLiteral("--to"), QStringLiteral("1"), QStringLiteral("--yes"), QStringLiteral("--audit"), audit });
        QVERIFY2(down.exitCode == 0, qPrintable(down.out + down.err));
        QTRY_COMPARE_WITH_TIMEOUT(decodeInstances(), 1, 15000);
        int stopped = 0;
        for (const pd::Engine &e : profile.engines(pd::Role::Decode))
            stopped += pdtest::httpStatus(e.host, e.port, "/health") == 0;
        QCOMPARE(stopped, 1); // the removed engine's process is gone, the other serves

        const Run up = pdctl({ QStringLiteral("scale"), QStringLiteral("--profile"), path, QStringLiteral("--pool"),
            QStringLiteral("decode"), QStringLiteral("--to"), QStringLiteral("2"), QStringLiteral("--yes"), QStringLiteral("--audit"), audit });
        QVERIFY2(up.exitCode == 0, qPrintable(up.out + up.err));
        QVERIFY2(up.out.contains(QLatin1String("start and add")), qPrintable(up.out));
        QTRY_COMPARE_WITH_TIMEOUT(decodeInstances(), 2, 15000);
        for (const pd::Engine &e : profile.engines(pd::Role::Decode))
            QCOMPARE(pdtest::httpStatus(e.host, e.port, "/health"), 200);

        QCOMPARE(pdctl({ QStringLiteral("engine"), QStringLiteral("stop"), QStringLiteral("--profile"), path }).exitCode, 0);
        QCOMPARE(pdctl({ QStringLiteral("proxy"), QStringLiteral("stop"), QStringLiteral("--profile"), path }).exitCode, 0);
    }

    // An engine started by the operator's own script (no pdconsole marker, no pid file)
    // is found by its port: status shows it running "started outside pdconsole" with its PID, command
    // line and log; Start does not launch a second copy; Stop stops it (the port closes). A port held by
    // something that is not an engine is a conflict: Start refuses naming it, Stop never touches it.
    void adoptsEnginesStartedOutsidePdconsole()
    {
        const pd::Engine engine = m_profile.engines(pd::Role::Decode).first();
        const QString log = m_dir.filePath(QStringLiteral("by-hand.log"));
        QFile script(m_dir.filePath(QStringLiteral("start_by_hand.sh")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/bash\n# what an operator's start script does: no pdconsole anywhere\n"
                     "nohup \"$PDSIM\" engine --host \"$1\" --port \"$2\" --role decode --grace-seconds 1 >\"$3\" 2>&1 &\n"
                     "echo $!\n");
        script.close();
        QProcess byHand;
        byHand.start(QStringLiteral("bash"), {script.fileName(), engine.host, QString::number(engine.port), log});
        QVERIFY(byHand.waitForFinished(10000));
        const qint64 pid = byHand.readAllStandardOutput().trimmed().toLongLong();
        QVERIFY(pid > 0);
        m_pids << pid;
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(engine.host, engine.port, "/health"), 200, 15000);

        const Run status = pdctl({ QStringLiteral("engine"), QStringLiteral("status"), QStringLiteral("--profile"), m_profilePath,
            QStringLiteral("--engine"), engine.id() });
        QVERIFY2(status.exitCode == 0, qPrintable(status.out + status.err));
        QVERIFY2(status.out.contains(QStringLiteral("started outside pdconsole, PID %1").arg(pid)), qPrintable(status.out));
        QVERIFY2(status.out.contains(QLatin1String("engine --host")), qPrintable(status.out)); // its command line
        QVERIFY2(status.out.contains(log), qPrintable(status.out));                           // and its log

        const Run again = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), m_profilePath,
            QStringLiteral("--engine"), engine.id(), QStringLiteral("--verify"), QStringLiteral("1") });
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.out.contains(QStringLiteral("already running, started outside pdconsole, PID %1").arg(pid)), qPrintable(again.out));

        const Run stop = pdctl({ QStringLiteral("engine"), QStringLiteral("stop"), QStringLiteral("--profile"), m_profilePath,
            QStringLiteral("--engine"), engine.id() });
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.out + stop.err));
        QVERIFY2(stop.out.contains(QStringLiteral("(started outside pdconsole) stopped by SIGTERM, PID %1").arg(pid)), qPrintable(stop.out));
        QVERIFY(pdtest::processGone(pid));
        QCOMPARE(pdtest::httpStatus(engine.host, engine.port, "/health"), 0);

        // Something else on the port: refused by Start, left alone by Stop.
        QProcess squatter;
        squatter.start(QStringLiteral("python3"), {QStringLiteral("-c"),
            QStringLiteral("import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);"
                           "s.bind(('%1',%2));s.listen();print('ready',flush=True);time.sleep(60)").arg(engine.host).arg(engine.port)});
        QVERIFY(squatter.waitForReadyRead(10000));
        const Run refused = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), m_profilePath,
            QStringLiteral("--engine"), engine.id(), QStringLiteral("--verify"), QStringLiteral("1") });
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.out.contains(QStringLiteral("port %1 is already in use by PID %2").arg(engine.port).arg(squatter.processId())),
                 qPrintable(refused.out + refused.err));
        const Run untouched = pdctl({ QStringLiteral("engine"), QStringLiteral("stop"), QStringLiteral("--profile"), m_profilePath,
            QStringLiteral("--engine"), engine.id() });
        QCOMPARE(untouched.exitCode, 1);
        QVERIFY2(untouched.out.contains(QLatin1String("which is not this process: not stopped")), qPrintable(untouched.out + untouched.err));
        QCOMPARE(squatter.state(), QProcess::Running);
        squatter.kill();
        squatter.waitForFinished(5000);
    }

    // A node whose engines live in a container (the two-node A2 guide: a privileged Docker container)
    // with CANN's set_env.sh to source. A fake `docker` on PATH records every call and runs the command
    // here: start, status and stop all go through `docker exec -i <name> bash -c`, the engine's process
    // carries what set_env.sh exports, the generated template sources it, a missing script is named.
    void containersAndEnvironmentScripts()
    {
        // It records the call (its first 60 bytes), then runs `exec -i NAME bash -c CMD` here.
        const pd::test::FakeDocker docker(
            m_dir.path(), R"(printf '%s\n' "$*" | head -c 60 >>"$FAKE_DOCKER_LOG"; echo >>"$FAKE_DOCKER_LOG")");
        QVERIFY(docker.isReady());
        const QString setEnv = m_dir.filePath(QStringLiteral("set_env.sh"));
        QFile env(setEnv);
        QVERIFY(env.open(QIODevice::WriteOnly));
        env.write("export ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest\n");
        env.close();

        pd::Profile profile = m_profile;
        profile.name = QStringLiteral("pdctl-container");
        profile.decode.container = {QStringLiteral("docker"), QStringLiteral("vllm-ascend-d")};
        profile.decode.envScripts = {setEnv};
        const QString path = m_dir.filePath(QStringLiteral("container.json"));
        QString error;
        QVERIFY2(pd::saveProfileFile(profile, path, &error), qPrintable(error));

        const pd::Engine engine = profile.engines(pd::Role::Decode).first();
        const Run start = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), path,
            QStringLiteral("--engine"), engine.id(), QStringLiteral("--verify"), QStringLiteral("1") });
        m_pids += pidsIn(start.out);
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        const QList<qint64> pids = pidsIn(start.out);
        QCOMPARE(pids.size(), 1);
        QFile environment(QStringLiteral("/proc/%1/environ").arg(pids.first()));
        QVERIFY(environment.open(QIODevice::ReadOnly));
        QVERIFY(environment.readAll().split('\0').contains("ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest"));
        const Run status = pdctl({ QStringLiteral("engine"), QStringLiteral("status"), QStringLiteral("--profile"), path,
            QStringLiteral("--engine"), engine.id() });
        QVERIFY2(status.exitCode == 0 && status.out.contains(QLatin1String("running")), qPrintable(status.out + status.err));
        const Run stop = pdctl({ QStringLiteral("engine"), QStringLiteral("stop"), QStringLiteral("--profile"), path,
            QStringLiteral("--engine"), engine.id() });
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.out + stop.err));
        QVERIFY(pdtest::processGone(pids.first()));

        const QList<QByteArray> lines = docker.calls().split('\n');
        int throughContainer = 0;
        for (const QByteArray &line : lines)
            throughContainer += line.startsWith("exec -i vllm-ascend-d bash -c ");
        QVERIFY2(throughContainer >= 3, lines.join('\n').constData()); // start, status, stop

        // The generated template sources the script too.
        const Run shown = pdctl({ QStringLiteral("script"), QStringLiteral("show"), QStringLiteral("--profile"), path,
            QStringLiteral("--node"), QStringLiteral("d1") });
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("source %1\n").arg(setEnv)) || shown.out.contains(QStringLiteral("source '%1'").arg(setEnv)),
                 qPrintable(shown.out));

        // A script that is not there is named, nothing starts.
        profile.decode.envScripts = {m_dir.filePath(QStringLiteral("no/set_env.sh"))};
        QVERIFY(pd::saveProfileFile(profile, path, &error));
        const Run missing = pdctl({ QStringLiteral("engine"), QStringLiteral("start"), QStringLiteral("--profile"), path,
            QStringLiteral("--engine"), engine.id(), QStringLiteral("--verify"), QStringLiteral("1") });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.out.contains(QLatin1String("environment script")) && missing.out.contains(QLatin1String("no/set_env.sh")),
                 qPrintable(missing.out + missing.err));
        QVERIFY2(missing.out.contains(QLatin1String("container vllm-ascend-d")), qPrintable(missing.out));
    }

    void scriptDiffAndUpload()
    {
        const Run diff = pdctl({ QStringLiteral("script"), QStringLiteral("diff"), QStringLiteral("--profile"),
            m_profilePath, QStringLiteral("--node"), QStringLiteral("d1") });
        QCOMPARE(diff.exitCode, 0);
        QVERIFY2(diff.out.contains(QLatin1String("+exec vllm serve m \\")), qPrintable(diff.out));
        // Not a terminal and no --yes: nothing is written.
        const Run refused = pdctl({ QStringLiteral("script"), QStringLiteral("upload"), QStringLiteral("--profile"),
            m_profilePath, QStringLiteral("--node"), QStringLiteral("d1") });
        QCOMPARE(refused.exitCode, 1);
        QVERIFY(refused.err.contains(QLatin1String("--yes")));
        QFile stand_in(m_dir.filePath(QStringLiteral("run_dp_template.sh")));
        QVERIFY(stand_in.open(QIODevice::ReadOnly));
        QVERIFY(stand_in.readAll().contains("pdsim"));
        stand_in.close();
        const Run shown = pdctl({ QStringLiteral("script"), QStringLiteral("show"), QStringLiteral("--profile"),
            m_profilePath, QStringLiteral("--node"), QStringLiteral("d1") });
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(shown.out.startsWith(QLatin1String("#!/bin/bash\n")));
    }
};

QTEST_GUILESS_MAIN(TestPdctlOps)
#include "tst_pdctlops.moc"
