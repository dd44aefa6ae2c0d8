// SPDX-License-Identifier: MIT
// Faults: sshd down, a host that accepts TCP but never speaks SSH, a session dropped by the node,
// sshd restarted, keepalive finding a dead session. Each is a clear error naming node and
// host:port, bounded by the timeouts, and never holds up the other nodes.
#include "sshdharness.h"

#include "ssh/sshpool.h"
#include "ssh/sshprompts.h"
#include "ssh/sshrunner.h"

#include <QTcpServer>
#include <QTest>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <future>
#include <mutex>

using namespace std::chrono_literals;
using pd::CommandResult;
using pd::test::SshdHarness;

namespace {

// A TCP listener that completes handshakes (the kernel does) but never answers: a hung host.
class SilentListener {
public:
    explicit SilentListener(const char *address)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in sa {};
        sa.sin_family = AF_INET;
        inet_pton(AF_INET, address, &sa.sin_addr);
        if (::bind(m_fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || ::listen(m_fd, 16) != 0)
            return;
        socklen_t len = sizeof sa;
        getsockname(m_fd, reinterpret_cast<sockaddr *>(&sa), &len);
        m_port = ntohs(sa.sin_port);
    }
    ~SilentListener() { ::close(m_fd); }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
};

struct Collector {
    std::mutex mutex;
    std::condition_variable done;
    QMap<QString, CommandResult> results;

    pd::SshPool::CommandCallback callback(const QString &key)
    {
        return [this, key](CommandResult r) {
            std::lock_guard lock(mutex);
            results.insert(key, std::move(r));
            done.notify_all();
        };
    }
    bool waitFor(int count, std::chrono::seconds limit)
    {
        std::unique_lock lock(mutex);
        return done.wait_for(lock, limit, [&] { return results.size() >= count; });
    }
};

} // namespace

class TstSshFaults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sshdDownClearErrorOthersUnaffected();
    void hungHostTimesOutOthersUnaffected();
    void reconnectAfterSessionDropAndSshdRestart();
    void keepaliveNoticesADeadSession();
    void staleSessionIsReplacedTransparently();
    void nodeHangingMidSessionIsDroppedAfterTheTimeout();

private:
    pd::SshSettings fastSettings() const;
    std::unique_ptr<SshdHarness> m_harness;
};

void TstSshFaults::initTestCase()
{
    PD_START_SSHD(m_harness, 8, error);
    QVERIFY2(m_harness->trustAllHostKeys(&error), qPrintable(error));
}

pd::SshSettings TstSshFaults::fastSettings() const
{
    pd::SshSettings settings = m_harness->settings();
    settings.workerThreads = 2;
    settings.connectTimeout = 2000ms;
    settings.backoffInitial = 300ms;
    settings.backoffMax = 1200ms;
    return settings;
}

void TstSshFaults::sshdDownClearErrorOthersUnaffected()
{
    const int down = 6;
    m_harness->stopNode(down);
    pd::SshPool pool(fastSettings(), std::make_shared<pd::FixedSshPrompts>());
    Collector collector;
    for (int node = 0; node < m_harness->nodeCount(); ++node)
        pool.submitCommand(m_harness->target(node), "echo up", 10s, collector.callback(m_harness->nodeName(node)));
    QVERIFY(collector.waitFor(m_harness->nodeCount(), 60s));
    for (int node = 0; node < m_harness->nodeCount(); ++node) {
        const CommandResult r = collector.results.value(m_harness->nodeName(node));
        if (node == down) {
            QVERIFY(!r.started);
            QVERIFY2(r.error.startsWith(QStringLiteral("node7 (127.0.0.7:%1): ").arg(m_harness->port(down))),
                qPrintable(r.error));
            QVERIFY2(r.error.contains(QLatin1String("refused"), Qt::CaseInsensitive), qPrintable(r.error));
        } else {
            QVERIFY2(r.ok(), qPrintable(r.error));
        }
    }
    // While backing off, the node's jobs fail at once with the last error and the next attempt.
    const pd::SshNodeStatus status = pool.status(m_harness->nodeName(down));
    QCOMPARE(status.failedConnects, 1);
    QVERIFY(!status.connected);
    QVERIFY(!status.lastError.isEmpty());
    pool.submitCommand(m_harness->target(down), "echo up", 10s, collector.callback(QStringLiteral("again")));
    QVERIFY(collector.waitFor(m_harness->nodeCount() + 1, 30s));
    const CommandResult again = collector.results.value(QStringLiteral("again"));
    QVERIFY2(again.error.contains(QLatin1String("next attempt in")) || again.error.contains(QLatin1String("refused")),
        qPrintable(again.error));

    QString error;
    QVERIFY2(m_harness->startNode(down, &error), qPrintable(error));
}

void TstSshFaults::hungHostTimesOutOthersUnaffected()
{
    SilentListener hung("127.0.0.9");
    QVERIFY(hung.port() > 0);
    pd::CommandTarget hungTarget;
    hungTarget.node = QStringLiteral("node-hung");
    hungTarget.host = QStringLiteral("127.0.0.9");
    hungTarget.port = hung.port();
    hungTarget.user = SshdHarness::currentUser();

    pd::SshPool pool(fastSettings(), std::make_shared<pd::FixedSshPrompts>());
    Collector collector;
    pool.submitCommand(hungTarget, "echo never", 10s, collector.callback(QStringLiteral("hung")));
    for (int node = 0; node < m_harness->nodeCount(); ++node)
        for (int i = 0; i < 3; ++i)
            pool.submitCommand(m_harness->target(node), "echo up", 10s,
                collector.callback(m_harness->nodeName(node) + QString::number(i)));
    QVERIFY(collector.waitFor(1 + 3 * m_harness->nodeCount(), 60s));
    const CommandResult r = collector.results.value(QStringLiteral("hung"));
    QVERIFY(!r.started);
    QVERIFY2(r.error.startsWith(QStringLiteral("node-hung (127.0.0.9:%1): ").arg(hung.port())), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("timeout"), Qt::CaseInsensitive)
            || r.error.contains(QLatin1String("timed out"), Qt::CaseInsensitive),
        qPrintable(r.error));
    for (int node = 0; node < m_harness->nodeCount(); ++node)
        for (int i = 0; i < 3; ++i) {
            const CommandResult ok = collector.results.value(m_harness->nodeName(node) + QString::number(i));
            QVERIFY2(ok.ok(), qPrintable(ok.error));
        }
}

void TstSshFaults::reconnectAfterSessionDropAndSshdRestart()
{
    const int node = 5;
    pd::SshRunner runner(fastSettings(), std::make_shared<pd::FixedSshPrompts>());
    const CommandResult first = runner.run(m_harness->target(node), "echo $SSH_CONNECTION", 10s);
    QVERIFY2(first.ok(), qPrintable(first.error));

    // The node drops our session (its sshd session process dies) and its sshd goes down.
    QVERIFY(m_harness->dropSessions(node) > 0);
    m_harness->stopNode(node);
    const CommandResult down = runner.run(m_harness->target(node), "true", 10s);
    QVERIFY(!down.ok());
    QVERIFY2(down.error.contains(m_harness->nodeName(node)), qPrintable(down.error));

    QString error;
    QVERIFY2(m_harness->startNode(node, &error), qPrintable(error));
    CommandResult back;
    QTRY_VERIFY_WITH_TIMEOUT((back = runner.run(m_harness->target(node), "echo $SSH_CONNECTION", 10s)).ok(), 20000);
    QVERIFY(back.out != first.out); // a new connection (another client port)
    QCOMPARE(runner.pool()->status(m_harness->nodeName(node)).failedConnects, 0);
}

void TstSshFaults::keepaliveNoticesADeadSession()
{
    const int node = 4;
    pd::SshSettings settings = fastSettings();
    settings.keepaliveInterval = 200ms;
    pd::SshRunner runner(settings, std::make_shared<pd::FixedSshPrompts>());
    const CommandResult r = runner.run(m_harness->target(node), "echo ok", 10s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(runner.pool()->status(m_harness->nodeName(node)).connected);
    QVERIFY(m_harness->dropSessions(node) > 0);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.pool()->status(m_harness->nodeName(node)).connected, 15000);
    // The next command simply reconnects.
    const CommandResult after = runner.run(m_harness->target(node), "echo again", 10s);
    QVERIFY2(after.ok(), qPrintable(after.error));
}

void TstSshFaults::staleSessionIsReplacedTransparently()
{
    const int node = 3;
    pd::SshSettings settings = fastSettings();
    settings.keepaliveInterval = 1h; // no keepalive: the next command finds the dead session
    pd::SshRunner runner(settings, std::make_shared<pd::FixedSshPrompts>());
    const CommandResult first = runner.run(m_harness->target(node), "echo $SSH_CONNECTION", 10s);
    QVERIFY2(first.ok(), qPrintable(first.error));
    QVERIFY(m_harness->dropSessions(node) > 0);
    // The command had not started on the dead session: it runs on a fresh one, no error shown.
    CommandResult second;
    QTRY_VERIFY_WITH_TIMEOUT(m_harness->dropSessions(node) == 0, 5000);
    second = runner.run(m_harness->target(node), "echo $SSH_CONNECTION", 10s);
    QVERIFY2(second.ok(), qPrintable(second.error));
    QVERIFY(second.out != first.out);
}

void TstSshFaults::nodeHangingMidSessionIsDroppedAfterTheTimeout()
{
    const int node = 2;
    pd::SshSettings settings = fastSettings();
    settings.killGrace = 500ms;
    pd::SshPool pool(settings, std::make_shared<pd::FixedSshPrompts>());
    Collector collector;
    pool.submitCommand(m_harness->target(node), "true", 10s, collector.callback(QStringLiteral("warm")));
    QVERIFY(collector.waitFor(1, 30s));
    QVERIFY2(collector.results.value(QStringLiteral("warm")).ok(),
        qPrintable(collector.results.value(QStringLiteral("warm")).error));

    // The node freezes (sshd and its sessions): the command can neither start nor be ended, and
    // a fresh connection gets no banner.
    m_harness->freezeNode(node, true);
    pool.submitCommand(m_harness->target(node), "echo never", 1s, collector.callback(QStringLiteral("frozen")));
    for (int other = 0; other < m_harness->nodeCount(); ++other)
        if (other != node)
            pool.submitCommand(
                m_harness->target(other), "echo up", 10s, collector.callback(m_harness->nodeName(other)));
    const bool finished = collector.waitFor(1 + m_harness->nodeCount(), 60s);
    m_harness->freezeNode(node, false);
    m_harness->dropSessions(node);
    QVERIFY(finished);
    const CommandResult frozen = collector.results.value(QStringLiteral("frozen"));
    QVERIFY(!frozen.ok());
    QVERIFY2(frozen.error.startsWith(m_harness->nodeName(node) + QStringLiteral(" (")), qPrintable(frozen.error));
    QVERIFY(!pool.status(m_harness->nodeName(node)).connected); // the session was dropped
    for (int other = 0; other < m_harness->nodeCount(); ++other)
        if (other != node) {
            const CommandResult r = collector.results.value(m_harness->nodeName(other));
            QVERIFY2(r.ok(), qPrintable(r.error));
        }
}

QTEST_GUILESS_MAIN(TstSshFaults)
#include "tst_sshfaults.moc"
