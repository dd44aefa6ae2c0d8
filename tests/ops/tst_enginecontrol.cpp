// SPDX-License-Identifier: MIT
// Engines started, found and stopped for real through LocalRunner: `bash run_dp_template.sh <seven
// arguments>` detached with setsid/nohup, the stand-in template exec'ing `pdsim engine` on 127.0.0.x,
// real pid files and log files under the run directory. Every PID a test sees is killed at cleanup
// if it still runs.
#include "ops/enginecontroller.h"

#include "opsfixture.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace std::chrono_literals;

class TestEngineControl : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    pd::Profile m_profile;
    std::shared_ptr<pd::DefaultRunnerFactory> m_runners = std::make_shared<pd::DefaultRunnerFactory>();
    QList<qint64> m_pids; // every PID seen, for cleanup

    pd::ControlTimings fastTimings() const
    {
        pd::ControlTimings t;
        t.verifyDelay = 1000ms;
        t.stopGrace = 5000ms;
        return t;
    }

    std::unique_ptr<pd::EngineController> controller()
    {
        auto c = std::make_unique<pd::EngineController>(m_profile, m_runners);
        c->setTimings(fastTimings());
        c->setMaxParallel(4);
        connect(c.get(), &pd::EngineController::processFinished, this, [this](int, const pd::ProcessOutcome &o) {
            if (o.pid > 0)
                m_pids << o.pid;
        });
        return c;
    }

    static std::optional<pd::OperationSummary> wait(pd::EngineController &c, int id)
    {
        return pdtest::waitForOperation(c, id, 120000);
    }

    QString runPath(const QString &relative) const { return m_dir->filePath(relative); }

    qint64 pidFileValue(const pd::Engine &engine) const
    {
        QFile f(QString(pd::engineProcess(m_profile, engine).pidFile));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        return f.readAll().trimmed().toLongLong();
    }

    void writeTemplate(const QByteArray &text)
    {
        QFile f(runPath(QStringLiteral("run_dp_template.sh")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("PDSIM", PD_BINARY_DIR "/sim/pdsim");
        qputenv("PDSIM_ENGINE_ARGS", "--grace-seconds 1 --no-jitter");
        QVERIFY2(QFile::exists(QStringLiteral(PD_BINARY_DIR "/sim/pdsim")), "build the pdsim target first");
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        QVERIFY(QFile::copy(QStringLiteral(PD_SOURCE_DIR "/resources/sim/run_dp_template.sh"),
            runPath(QStringLiteral("run_dp_template.sh"))));
        m_profile = pd::Profile();
        m_profile.name = QStringLiteral("ops-test");
        m_profile.runDir = m_dir->path();
        m_profile.launchFlavor = pd::LaunchFlavor::V091;
        m_profile.nodes = { pdtest::loopbackNode(QStringLiteral("p1"), QStringLiteral("127.0.0.41"), pd::Role::Prefill,
                                1, 1, 0, QStringLiteral("127.0.0.41")),
            pdtest::loopbackNode(QStringLiteral("d1"), QStringLiteral("127.0.0.42"), pd::Role::Decode, 2, 4, 0,
                QStringLiteral("127.0.0.42")),
            pdtest::loopbackNode(QStringLiteral("d2"), QStringLiteral("127.0.0.43"), pd::Role::Decode, 1, 4, 2,
                QStringLiteral("127.0.0.42")) };
        for (const pd::Node &n : std::as_const(m_profile.nodes))
            QVERIFY(n.engineGroups.first().engineStartPort > 0);
    }

    void cleanup()
    {
        for (const qint64 pid : std::as_const(m_pids)) {
            pdtest::killSessionLeader(pid);
        }
        m_pids.clear();
    }

    void startServeRestartStop()
    {
        auto c = controller();
        QList<int> progressSeen;
        connect(c.get(), &pd::EngineController::progress, this,
            [&progressSeen](int, int done, int) { progressSeen << done; });
        const QList<pd::Engine> engines = c->allEngines();
        QCOMPARE(engines.size(), 4);

        auto started = wait(*c, c->startEngines(engines));
        QVERIFY(started);
        QVERIFY2(started->failed() == 0, qPrintable(started->text()));
        QCOMPARE(progressSeen.last(), 4);
        QHash<QString, qint64> firstPids;
        for (const pd::Engine &e : engines) {
            QCOMPARE(c->processFact(e.id()), pd::ProcessFact::Running);
            const qint64 pid = c->pid(e.id());
            QVERIFY(pid > 0);
            QCOMPARE(pidFileValue(e), pid); // the pid file on the node says the same
            QVERIFY(!pdtest::processGone(pid));
            firstPids.insert(e.id(), pid);
            QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(e.host, e.port, "/health"), 200, 15000);
        }
        // One log per engine, and the launcher's arguments reached the engine as the real template maps them.
        const pd::Engine d2 = c->enginesOfNode(QStringLiteral("d2")).first();
        QFile log(pd::engineProcess(m_profile, d2).logFile);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray logText = log.readAll();
        QVERIFY2(logText.contains(QByteArray("decode engine, DP rank 2, on 127.0.0.43:" + QByteArray::number(d2.port))),
            logText.constData());

        auto status = wait(*c, c->refreshEngines(engines));
        QVERIFY(status && status->failed() == 0);
        for (const pd::ProcessOutcome &o : std::as_const(status->outcomes)) {
            QCOMPARE(o.process, pd::ProcessFact::Running);
            QCOMPARE(o.pid, firstPids.value(o.id));
        }

        auto restarted = wait(*c, c->restartEngines(c->enginesOfNode(QStringLiteral("d1"))));
        QVERIFY(restarted);
        QVERIFY2(restarted->failed() == 0, qPrintable(restarted->text()));
        for (const pd::Engine &e : c->enginesOfNode(QStringLiteral("d1"))) {
            QVERIFY(c->pid(e.id()) != firstPids.value(e.id()));
            QTRY_VERIFY_WITH_TIMEOUT(pdtest::processGone(firstPids.value(e.id())), 5000);
            QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(e.host, e.port, "/health"), 200, 15000);
        }
        QVERIFY(QFile::exists(pd::engineProcess(m_profile, c->enginesOfNode(QStringLiteral("d1")).first()).logFile
            + QStringLiteral(".1"))); // the previous run's log is kept

        QList<qint64> running;
        for (const pd::Engine &e : engines)
            running << c->pid(e.id());
        auto stopped = wait(*c, c->stopEngines(engines));
        QVERIFY(stopped);
        QVERIFY2(stopped->failed() == 0, qPrintable(stopped->text()));
        for (const pd::Engine &e : engines) {
            QCOMPARE(c->processFact(e.id()), pd::ProcessFact::Exited);
            QVERIFY(!QFile::exists(pd::engineProcess(m_profile, e).pidFile));
            QCOMPARE(pdtest::httpStatus(e.host, e.port, "/health"), 0);
        }
        for (const qint64 pid : std::as_const(running))
            QVERIFY2(pdtest::processGone(pid), qPrintable(QString::number(pid)));
    }

    void mainFlavorMapsTheArguments()
    {
        m_profile.launchFlavor = pd::LaunchFlavor::Main;
        m_profile.nodes.removeLast();
        m_profile.nodes[1].engineGroups[0].dpSize = 2;
        auto c = controller();
        const QList<pd::Engine> engines = c->enginesOfNode(QStringLiteral("d1"));
        auto started = wait(*c, c->startEngines(engines));
        QVERIFY(started);
        QVERIFY2(started->failed() == 0, qPrintable(started->text()));
        const pd::Engine second = engines.at(1);
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(second.host, second.port, "/health"), 200, 15000);
        QFile log(pd::engineProcess(m_profile, second).logFile);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray text = log.readAll();
        // main: devices, port, dp size, rank, address, rpc port, tp size
        QVERIFY2(
            text.contains(
                "data-parallel size 2 rank 1 address 127.0.0.42 rpc port 13395, tensor-parallel size 1, devices 1"),
            text.constData());
        QVERIFY2(text.contains("(pdsim, main): decode engine, DP rank 1"), text.constData());
        auto stopped = wait(*c, c->stopEngines(engines));
        QVERIFY(stopped && stopped->failed() == 0);
    }

    void rediscoveryNeverStartsASecondCopy()
    {
        QHash<QString, qint64> pids;
        const QList<pd::Engine> engines = m_profile.engines(pd::Role::Decode);
        {
            auto first = controller();
            auto started = wait(*first, first->startEngines(engines));
            QVERIFY(started);
            QVERIFY2(started->failed() == 0, qPrintable(started->text()));
            for (const pd::Engine &e : engines)
                pids.insert(e.id(), first->pid(e.id()));
        } // the console "restarts"

        auto second = controller();
        QSignalSpy changes(second.get(), &pd::EngineController::engineProcessChanged);
        auto found = wait(*second, second->rediscover());
        QVERIFY(found);
        QVERIFY2(found->failed() == 0, qPrintable(found->text()));
        for (const pd::Engine &e : engines) {
            QCOMPARE(second->processFact(e.id()), pd::ProcessFact::Running);
            QCOMPARE(second->pid(e.id()), pids.value(e.id()));
        }
        const pd::Engine prefill = m_profile.engines(pd::Role::Prefill).first();
        QCOMPARE(second->processFact(prefill.id()), pd::ProcessFact::Exited);
        QCOMPARE(changes.size(), 4);

        // Start again: every engine is already running, nothing new is launched.
        auto again = wait(*second, second->startEngines(engines));
        QVERIFY(again && again->failed() == 0);
        for (const pd::ProcessOutcome &o : std::as_const(again->outcomes)) {
            QVERIFY2(o.detail.startsWith(QLatin1String("already running")), qPrintable(o.detail));
            QCOMPARE(o.pid, pids.value(o.id));
        }

        // A lost pid file: the engine is still found by its marker and not started twice.
        const pd::Engine lost = engines.first();
        QVERIFY(QFile::remove(pd::engineProcess(m_profile, lost).pidFile));
        auto refound = wait(*second, second->startEngines({ lost }));
        QVERIFY(refound && refound->failed() == 0);
        QVERIFY2(refound->outcomes.first().detail.contains(QLatin1String("found by its marker")),
            qPrintable(refound->outcomes.first().detail));
        QCOMPARE(refound->outcomes.first().pid, pids.value(lost.id()));
        QCOMPARE(pidFileValue(lost), pids.value(lost.id())); // rewritten

        // A pid file nobody in the profile owns is reported, not touched.
        QFile stray(runPath(QStringLiteral("engines/old-node-9999.pid")));
        QVERIFY(stray.open(QIODevice::WriteOnly));
        stray.write("1\n");
        stray.close();
        auto noted = wait(*second, second->rediscover());
        QVERIFY(noted);
        QCOMPARE(noted->notes.size(), 1);
        QVERIFY2(noted->notes.first().contains(QLatin1String("old-node-9999.pid")), qPrintable(noted->notes.first()));

        auto stopped = wait(*second, second->stopEngines(engines));
        QVERIFY(stopped && stopped->failed() == 0);
        for (const qint64 pid : std::as_const(pids))
            QVERIFY(pdtest::processGone(pid));
    }

    void aStalePidFileIsNotARunningEngine()
    {
        auto c = controller();
        const pd::Engine engine = m_profile.engines().first();
        const pd::DetachedProcess process = pd::engineProcess(m_profile, engine);
        QVERIFY(QDir().mkpath(QFileInfo(process.pidFile).path()));
        // The PID of a live process that is not this engine (this test itself): a reused PID.
        QFile pidFile(process.pidFile);
        QVERIFY(pidFile.open(QIODevice::WriteOnly));
        pidFile.write(QByteArray::number(QCoreApplication::applicationPid()) + '\n');
        pidFile.close();

        auto status = wait(*c, c->refreshEngines({ engine }));
        QVERIFY(status && status->failed() == 0);
        QCOMPARE(status->outcomes.first().process, pd::ProcessFact::Exited);
        QVERIFY2(status->outcomes.first().detail.contains(QLatin1String("stale")),
            qPrintable(status->outcomes.first().detail));

        auto stopped = wait(*c, c->stopEngines({ engine })); // must not signal the PID in the stale file
        QVERIFY(stopped && stopped->failed() == 0);
        QVERIFY2(stopped->outcomes.first().detail.contains(QLatin1String("stale")),
            qPrintable(stopped->outcomes.first().detail));
        QVERIFY(!QFile::exists(process.pidFile));

        // A stale file with a dead PID does not block a start either.
        QVERIFY(pidFile.open(QIODevice::WriteOnly));
        pidFile.write("999999999\n");
        pidFile.close();
        auto started = wait(*c, c->startEngines({ engine }));
        QVERIFY(started);
        QVERIFY2(started->failed() == 0, qPrintable(started->text()));
        QVERIFY(started->outcomes.first().detail.startsWith(QLatin1String("started")));
        QCOMPARE(pidFileValue(engine), c->pid(engine.id()));
        auto stopped2 = wait(*c, c->stopEngines({ engine }));
        QVERIFY(stopped2 && stopped2->failed() == 0);
        QVERIFY(pdtest::processGone(started->outcomes.first().pid));
    }

    void aTemplateThatExitsAtOnceIsReportedWithTheLogTail()
    {
        writeTemplate("#!/bin/bash\necho \"loading model from $6\"\necho 'RuntimeError: NPU out of memory. Tried to "
                      "allocate 2.00 GiB' >&2\nexit 1\n");
        auto c = controller();
        const QList<pd::Engine> engines = c->enginesOfNode(QStringLiteral("d1"));
        auto started = wait(*c, c->startEngines(engines));
        QVERIFY(started);
        QCOMPARE(started->failed(), 2);
        const pd::ProcessOutcome o = started->outcomes.first();
        QCOMPARE(o.process, pd::ProcessFact::Exited);
        QVERIFY2(o.error.contains(QLatin1String("exited within")) && o.error.contains(QLatin1String("d1")),
            qPrintable(o.error));
        QVERIFY2(o.logTail.contains("NPU out of memory"), o.logTail.constData());
        // The cause is named in the result itself: the tail's known signature with its fix.
        QVERIFY2(o.error.contains(QLatin1String("cause in the log: NPU out of memory (\"RuntimeError: NPU out of memory.")),
                 qPrintable(o.error));
        QVERIFY2(o.error.contains(QLatin1String("fix: Start with --quantization ascend")), qPrintable(o.error));
        QVERIFY2(o.logTail.contains(QByteArray("loading model from " + QByteArray::number(engines.first().port))),
            o.logTail.constData());
        QVERIFY2(
            started->text().contains(QLatin1String("| RuntimeError: NPU out of memory")), qPrintable(started->text()));
        QCOMPARE(c->processFact(engines.first().id()), pd::ProcessFact::Exited);
        QVERIFY(!QFile::exists(pd::engineProcess(m_profile, engines.first()).pidFile));
    }

    void aMissingTemplateIsNamed()
    {
        QVERIFY(QFile::remove(runPath(QStringLiteral("run_dp_template.sh"))));
        auto c = controller();
        auto started = wait(*c, c->startEngines({ m_profile.engines().first() }));
        QVERIFY(started);
        QCOMPARE(started->failed(), 1);
        QVERIFY2(started->outcomes.first().error.contains(QLatin1String("run_dp_template.sh does not exist")),
            qPrintable(started->outcomes.first().error));
    }

    void aRemoteNodeWithoutRunnerFailsNamingTheNode()
    {
        m_profile.nodes[0].address = QStringLiteral("192.0.2.10");
        auto c = controller();
        auto started = wait(*c, c->startEngines(c->enginesOfNode(QStringLiteral("p1"))));
        QVERIFY(started);
        QCOMPARE(started->failed(), 1);
        QVERIFY2(started->outcomes.first().error.contains(QLatin1String("p1 (192.0.2.10)")),
            qPrintable(started->outcomes.first().error));
    }

    void selections()
    {
        auto c = controller();
        QStringList unknown;
        const QList<pd::Engine> picked = c->enginesById(
            { m_profile.engines().at(2).id(), QStringLiteral("d2:%1").arg(m_profile.engines().at(3).port),
                QStringLiteral("nope:1") },
            &unknown);
        QCOMPARE(picked.size(), 2);
        QCOMPARE(picked.at(1).dpRank, 2);
        QCOMPARE(unknown, QStringList { QStringLiteral("nope:1") });
        QCOMPARE(c->enginesOfPool(pd::Role::Decode).size(), 3);
        QCOMPARE(c->enginesOfNode(QStringLiteral("d1")).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestEngineControl)
#include "tst_enginecontrol.moc"
