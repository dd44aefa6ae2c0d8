// SPDX-License-Identifier: MIT
// Destroying an EngineController (the console's reload, open and quit) never waits on a node from the
// GUI thread: with a command hung on one node the destructor returns at once, the command that had
// not started yet never runs, and the retired pool goes when the hung command returns. A runner that
// blocks until the test releases it makes this deterministic (no timing involved).
#include "cluster/profileformat.h"
#include "exec/runnerfactory.h"
#include "ops/enginecontroller.h"

#include <QMutex>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace pd;

namespace {

// Every command blocks until release(); the nodes it was asked to run on are recorded.
class GateRunner final : public CommandRunner, public RunnerFactory {
public:
    CommandResult run(const CommandTarget &target, const QByteArray &, std::chrono::milliseconds) override
    {
        {
            QMutexLocker lock(&m_mutex);
            m_nodes << target.node;
        }
        m_entered.release();
        m_gate.acquire();
        CommandResult r;
        r.started = true;
        r.exitStatus = 0;
        return r;
    }
    std::shared_ptr<CommandRunner> runner(const CommandTarget &, QString *) override { return m_self.lock(); }

    void setSelf(const std::shared_ptr<GateRunner> &self) { m_self = self; }
    bool waitEntered(int ms) { return m_entered.tryAcquire(1, ms); }
    void release(int n) { m_gate.release(n); }
    QStringList nodes()
    {
        QMutexLocker lock(&m_mutex);
        return m_nodes;
    }

private:
    std::weak_ptr<GateRunner> m_self;
    QSemaphore m_entered;
    QSemaphore m_gate;
    QMutex m_mutex;
    QStringList m_nodes;
};

} // namespace

class TestControllerTeardown : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void destructionDoesNotWaitForAHungNode()
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        auto gate = std::make_shared<GateRunner>();
        gate->setSelf(gate);
        auto controller = std::make_unique<EngineController>(*loaded.profile, gate);
        controller->setMaxParallel(1);
        // Engines of two nodes: two jobs, one runs (and hangs), the other waits for the pool.
        QList<Engine> engines = controller->enginesOfNode(loaded.profile->nodes.at(0).name).mid(0, 1);
        engines += controller->enginesOfNode(loaded.profile->nodes.at(1).name).mid(0, 1);
        QCOMPARE(engines.size(), 2);
        QSignalSpy finished(controller.get(), &EngineController::operationFinished);
        controller->refreshEngines(engines);
        QVERIFY(gate->waitEntered(10000));
        const QString hungNode = gate->nodes().value(0);

        controller.reset(); // returns with the command still hung: a blocking destructor never gets past here
        QCOMPARE(EngineController::retiredPoolsRunning(), 1);
        QCOMPARE(gate->nodes(), QStringList{hungNode});

        gate->release(100); // the node answers at last
        QTRY_COMPARE_WITH_TIMEOUT(EngineController::retiredPoolsRunning(), 0, 10000);
        // The job that had not started was dropped with its controller; no result reached anyone.
        QCOMPARE(gate->nodes(), QStringList{hungNode});
        QCOMPARE(finished.size(), 0);
    }

    void anIdleControllerGoesAtOnce()
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        auto gate = std::make_shared<GateRunner>();
        gate->setSelf(gate);
        { EngineController controller(*loaded.profile, gate); }
        QCOMPARE(EngineController::retiredPoolsRunning(), 0);
    }
};

QTEST_GUILESS_MAIN(TestControllerTeardown)
#include "tst_controllerteardown.moc"
