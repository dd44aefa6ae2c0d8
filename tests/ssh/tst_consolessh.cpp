// SPDX-License-Identifier: MIT
// The console's own operations stack over real SSH: the same parts
// app/console/operations.cpp composes (SshRunner behind DefaultRunnerFactory, EngineController,
// RunnerEngineControl, ScaleRunner, EngineActions with its audit log) against a node on 127.0.0.x whose
// "transport": "ssh" sends every command through a real sshd. An engine started on the node by hand
// script (pdsim engine, no pdconsole marker) is adopted with its PID, restarted by the engine menu's
// Restart (the adopted process stopped by its port, a new one started through the launcher and the
// stand-in run_dp_template.sh), then stopped by Stop; each action leaves its audit lines.
#include "sshdharness.h"

#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "exec/runnerfactory.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/engineactions.h"
#include "ops/enginecontroller.h"
#include "ops/runnerenginecontrol.h"
#include "ops/scalecontext.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ssh/sshprompts.h"
#include "ssh/sshrunner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace pd;
using pd::test::SshdHarness;
using pd::test::readFile;

namespace {


bool listening(const QString &host, quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(host, port);
    return socket.waitForConnected(1000);
}

} // namespace

class TstConsoleSsh : public QObject {
    Q_OBJECT

    std::unique_ptr<SshdHarness> m_sshd;
    QTemporaryDir m_dir;
    Profile m_profile;

    // The controller's status round for every engine, as the console's 30 s refresh runs it.
    QList<ProcessOutcome> refresh(EngineController &controller)
    {
        std::optional<QList<ProcessOutcome>> got;
        int id = -1;
        const auto connection = connect(&controller, &EngineController::operationFinished, this, [&got, &id](const OperationSummary &s) {
            if (s.id == id)
                got = s.outcomes;
        });
        id = controller.refreshEngines(controller.allEngines()); // the result comes queued, after this
        (void)QTest::qWaitFor([&got] { return got.has_value(); }, 60000);
        disconnect(connection);
        return got.value_or(QList<ProcessOutcome>());
    }

private Q_SLOTS:
    void initTestCase()
    {
        PD_START_SSHD(m_sshd, 2, error);
        QVERIFY(m_dir.isValid());
        const QString runDir = m_dir.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(runDir));
        QVERIFY(QFile::copy(QStringLiteral(PD_SOURCE_DIR "/resources/sim/run_dp_template.sh"), runDir + QStringLiteral("/run_dp_template.sh")));
        m_profile.name = QStringLiteral("console-ssh");
        m_profile.runDir = runDir;
        m_profile.prefill.modelPath = QStringLiteral("m");
        m_profile.decode.modelPath = QStringLiteral("m");
        // The node's shell comes from sshd, not from this process: the stand-in template finds pdsim
        // through an environment script sourced before it starts, as a real one finds vllm through
        // CANN's set_env.sh (roles' env_scripts).
        const QString envScript = runDir + QStringLiteral("/pdsim_env.sh");
        QFile env(envScript);
        QVERIFY(env.open(QIODevice::WriteOnly));
        env.write("export PDSIM='" PD_BINARY_DIR "/sim/pdsim'\nexport PDSIM_ENGINE_ARGS='--grace-seconds 1'\n");
        env.close();
        m_profile.decode.envScripts = {envScript};
        m_profile.prefill.envScripts = {envScript};
        m_profile.nodes = {m_sshd->profileNode(0, QStringLiteral("p1"), Role::Prefill, 23111),
                           m_sshd->profileNode(1, QStringLiteral("d1"), Role::Decode, 23211)};
        m_profile.proxy.address = m_sshd->address(0);
        m_profile.proxy.bindHost = m_sshd->address(0);
        m_profile.proxy.port = 23311; // nothing listens: the proxy is down, the engine is in no list
    }

    void adoptedEngineIsRestartedAndStoppedByTheConsolesActions()
    {
        const QString host = m_sshd->address(1);
        // A process left on the port (an earlier run that crashed) would be adopted in place of ours.
        QVERIFY2(!listening(host, 23211), "something already listens on 127.0.0.2:23211; stop it first");
        const QString log = m_dir.filePath(QStringLiteral("by-hand.log"));
        // Started the way an operator's own script would, with its output in a file; setpriv makes it
        // die with this test even if the test crashes (no engine left holding the port).
        QProcess byHand;
        byHand.setStandardOutputFile(log);
        byHand.setStandardErrorFile(log, QIODevice::Append);
        byHand.start(QStringLiteral("setpriv"), {QStringLiteral("--pdeathsig"), QStringLiteral("KILL"), QStringLiteral(PD_BINARY_DIR "/sim/pdsim"),
                                                 QStringLiteral("engine"), QStringLiteral("--host"), host, QStringLiteral("--port"),
                                                 QStringLiteral("23211"), QStringLiteral("--role"), QStringLiteral("decode"),
                                                 QStringLiteral("--grace-seconds"), QStringLiteral("1")});
        QVERIFY(byHand.waitForStarted(10000));
        const qint64 pid = byHand.processId();
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(listening(host, 23211), 15000);

        // The console's composition (Operations::rebuild), with host keys trusted as its dialog would.
        auto ssh = std::make_shared<SshRunner>(m_sshd->settings(), std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Accept));
        ssh->registerProfile(m_profile);
        auto runners = std::make_shared<DefaultRunnerFactory>();
        runners->setRemoteRunner(ssh);
        EngineController controller(m_profile, runners);
        RunnerEngineControl control(&controller);
        ProxyClient proxy;
        proxy.setEndpoint({QUrl(QStringLiteral("http://%1:23311").arg(m_sshd->address(0))), {}, {}, 2000});
        MembershipReconciler membership(&proxy);
        const QList<EngineRef> refs = engineRefs(m_profile);
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : refs)
            configured.append({e.id, e.role});
        membership.setConfigured(configured);
        EngineProbe probe;
        AuditLog audit(m_dir.filePath(QStringLiteral("audit.jsonl")));
        ScaleContext ctx;
        ctx.proxy = &proxy;
        ctx.membership = &membership;
        ctx.control = &control;
        ctx.probe = &probe;
        ctx.audit = &audit;
        setScaleContextProfile(ctx, m_profile);
        ctx.settings.pollMs = 200;
        ctx.settings.engineReadyTimeoutMs = 60000;
        ctx.settings.stopTimeoutMs = 30000;
        ScaleRunner runner(&ctx);
        EngineActions actions(&ctx, &runner);

        // Adopted: running, started outside pdconsole, its PID and command line.
        const QString id = QStringLiteral("%1:23211").arg(host);
        const auto outcomeOf = [&id](const QList<ProcessOutcome> &outcomes) {
            for (const ProcessOutcome &o : outcomes)
                if (o.id == id)
                    return o;
            return ProcessOutcome();
        };
        ProcessOutcome seen = outcomeOf(refresh(controller));
        QVERIFY2(seen.foreign, qPrintable(seen.detail + seen.error));
        QCOMPARE(seen.process, ProcessFact::Running);
        QVERIFY2(seen.detail.contains(QStringLiteral("PID %1").arg(pid)), qPrintable(seen.detail));
        QVERIFY2(seen.detail.contains(QLatin1String("engine --host")), qPrintable(seen.detail));
        QCOMPARE(seen.foreignLog, log);

        EngineRef engine;
        for (const EngineRef &e : refs)
            if (e.id == id)
                engine = e;
        QCOMPARE(engine.id, id);

        // Restart from the engine menu: the adopted process goes (TERM, port closed), ours comes up.
        const EngineActionPlan restart = actions.plan(EngineAction::Restart, {engine});
        QVERIFY2(restart.canRun(false), qPrintable(restart.refusalText()));
        QVERIFY(!actions.run(restart, false).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 90000);
        for (const ScaleOperation *op : runner.operations())
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded,
                     qPrintable(op->kind() + QLatin1Char(' ') + op->summary() + QLatin1Char('\n')
                                + QString::fromUtf8(readFile(m_profile.runDir + QStringLiteral("/engines/d1-23211.log")))));
        QTRY_VERIFY_WITH_TIMEOUT(byHand.state() == QProcess::NotRunning, 10000); // the hand-started process is gone
        seen = outcomeOf(refresh(controller));
        QCOMPARE(seen.process, ProcessFact::Running);
        QVERIFY2(!seen.foreign, qPrintable(seen.detail)); // now pdconsole's own, with its marker
        QVERIFY(listening(host, 23211));

        // Stop from the engine menu.
        const EngineActionPlan stop = actions.plan(EngineAction::Stop, {engine});
        QVERIFY2(stop.canRun(false), qPrintable(stop.refusalText()));
        QVERIFY(!actions.run(stop, false).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 60000);
        for (const ScaleOperation *op : runner.operations())
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(op->kind() + QLatin1Char(' ') + op->summary()));
        QTRY_VERIFY_WITH_TIMEOUT(!listening(host, 23211), 10000);
        QCOMPARE(outcomeOf(refresh(controller)).process, ProcessFact::Exited);

        // Audited like any other action, with the host key trusted through pdconsole's own reader.
        const QByteArray lines = readFile(audit.path());
        // The restart is its stop and its start, then the Stop: two stops and one start, each succeeded.
        QVERIFY2(lines.count("\"action\":\"stop\",") == 2 && lines.count("\"action\":\"start\",") == 1, lines.constData());
        QVERIFY2(lines.count("\"result\":\"succeeded\"") == 3, lines.constData());
        QVERIFY2(readFile(m_sshd->knownHostsPath()).contains(m_sshd->address(1).toLatin1()), "the node's key was not recorded");
    }
};

QTEST_GUILESS_MAIN(TstConsoleSsh)
#include "tst_consolessh.moc"
