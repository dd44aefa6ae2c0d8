// SPDX-License-Identifier: MIT
// The engine threads' epoll event loop: timers (single-shot, repeating, stopped from their own handler),
// queued calls from another thread, socket notifiers, quitting; and the HTTP server in such a thread
// (and in one with Qt's own loop) answering keep-alive requests whose bodies are bigger than the kernel
// takes at once, so the unsent rest goes through the QTcpSocket and arrives whole and in order.
#include "clustersim/epolleventdispatcher.h"
#include "http/httpserver.h"

#include <QElapsedTimer>
#include <QSocketNotifier>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

#include <sys/socket.h>
#include <unistd.h>

using namespace pd::sim;

namespace {

// A thread running its own event loop, on the epoll dispatcher or on Qt's default one.
struct LoopThread {
    explicit LoopThread(bool epoll)
    {
        if (epoll)
            thread.setEventDispatcher(new EpollEventDispatcher);
        thread.start();
        context->moveToThread(&thread);
    }
    ~LoopThread()
    {
        context->deleteLater();
        thread.quit();
        thread.wait();
    }
    // Runs f in the thread and waits for it.
    template<typename F> void run(F f) { QMetaObject::invokeMethod(context, f, Qt::BlockingQueuedConnection); }
    QThread thread;
    QObject *context = new QObject;
};

// One GET on an open connection: the status and the body, read with a Content-Length; empty when the
// answer did not come whole within 5 s.
QByteArray get(QTcpSocket &socket, const QByteArray &path, int *status)
{
    socket.write("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
    QByteArray data;
    qsizetype headEnd = -1;
    qsizetype length = -1;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 5000) {
        if (headEnd < 0 && (headEnd = data.indexOf("\r\n\r\n")) >= 0) {
            const QByteArray head = data.left(headEnd).toLower();
            *status = head.mid(9, 3).toInt();
            const qsizetype at = head.indexOf("content-length: ");
            length = at < 0 ? 0 : head.mid(at + 16, head.indexOf('\r', at) - at - 16).toLongLong();
        }
        if (headEnd >= 0 && data.size() >= headEnd + 4 + length)
            return data.mid(headEnd + 4, length);
        socket.waitForReadyRead(100);
        data += socket.readAll();
    }
    return {};
}

} // namespace

class TestEpollEventDispatcher : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timersAndQueuedCalls();
    void socketNotifier();
    void quitsWhileCalledFromOutside();
    void serverAnswersBigBodiesWhole_data();
    void serverAnswersBigBodiesWhole();
};

void TestEpollEventDispatcher::timersAndQueuedCalls()
{
    LoopThread loop(true);
    std::atomic<int> singleShots { 0 }, ticks { 0 }, calls { 0 };
    std::unique_ptr<QTimer> repeating;
    loop.run([&] {
        QTimer::singleShot(30, loop.context, [&] { ++singleShots; });
        QTimer::singleShot(0, loop.context, [&] { ++singleShots; });
        repeating = std::make_unique<QTimer>();
        repeating->setInterval(5);
        QObject::connect(repeating.get(), &QTimer::timeout, repeating.get(), [&] {
            if (++ticks == 5)
                repeating->stop(); // stopped from its own handler
        });
        repeating->start();
    });
    for (int i = 0; i < 10; ++i)
        loop.run([&] { ++calls; });
    QCOMPARE(calls.load(), 10);
    QTRY_COMPARE(singleShots.load(), 2);
    QTRY_COMPARE(ticks.load(), 5);
    QTest::qWait(30);
    QCOMPARE(ticks.load(), 5); // no tick after stop()
    QCOMPARE(singleShots.load(), 2);
    int remaining = 0;
    loop.run([&] {
        repeating->start(10000);
        remaining = repeating->remainingTime();
        repeating.reset(); // deleted while registered
    });
    QVERIFY(remaining > 9000 && remaining <= 10000);
}

void TestEpollEventDispatcher::socketNotifier()
{
    int fds[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    LoopThread loop(true);
    std::atomic<int> activations { 0 };
    std::atomic<int> bytes { 0 };
    std::unique_ptr<QSocketNotifier> notifier;
    loop.run([&] {
        notifier = std::make_unique<QSocketNotifier>(fds[0], QSocketNotifier::Read);
        QObject::connect(notifier.get(), &QSocketNotifier::activated, notifier.get(), [&] {
            ++activations;
            char buf[16];
            const ssize_t n = ::read(fds[0], buf, sizeof buf);
            bytes += int(std::max<ssize_t>(0, n));
        });
    });
    QCOMPARE(::write(fds[1], "abc", 3), 3);
    QTRY_COMPARE(bytes.load(), 3);
    const int after = activations.load();
    QTest::qWait(30);
    QCOMPARE(activations.load(), after); // level-triggered, but nothing is left to read
    loop.run([&] { notifier->setEnabled(false); });
    QCOMPARE(::write(fds[1], "de", 2), 2);
    QTest::qWait(30);
    QCOMPARE(bytes.load(), 3); // disabled: not told
    loop.run([&] { notifier->setEnabled(true); });
    QTRY_COMPARE(bytes.load(), 5);
    loop.run([&] { notifier.reset(); });
    ::close(fds[0]);
    ::close(fds[1]);
}

// Calls posted from another thread right up to quit(): every thread ends (no wake-up is lost).
void TestEpollEventDispatcher::quitsWhileCalledFromOutside()
{
    for (int i = 0; i < 200; ++i) {
        QThread thread;
        thread.setEventDispatcher(new EpollEventDispatcher);
        thread.start();
        QObject *context = new QObject;
        context->moveToThread(&thread);
        std::atomic<int> calls { 0 };
        for (int k = 0; k < i % 7; ++k)
            QMetaObject::invokeMethod(
                context, [&calls] { ++calls; }, Qt::QueuedConnection);
        context->deleteLater();
        thread.quit();
        QVERIFY2(thread.wait(5000), qPrintable(QStringLiteral("thread %1 did not end").arg(i)));
    }
}

void TestEpollEventDispatcher::serverAnswersBigBodiesWhole_data()
{
    QTest::addColumn<bool>("epoll");
    QTest::newRow("epoll") << true;
    QTest::newRow("Qt's loop") << false;
}

void TestEpollEventDispatcher::serverAnswersBigBodiesWhole()
{
    QFETCH(bool, epoll);
    LoopThread loop(epoll);
    std::unique_ptr<HttpServer> server;
    quint16 port = 0;
    loop.run([&] {
        server = std::make_unique<HttpServer>();
        server->setHandler([](const HttpRequest &req, const HttpResponderPtr &res) {
            // 4 MiB: more than a loopback socket takes in one call.
            QByteArray body(4 * 1024 * 1024, 'x');
            for (qsizetype i = 0; i < body.size(); i += 4096)
                body[i] = char('a' + (i / 4096) % 26);
            body.prepend(req.path);
            res->respond(200, "text/plain", body);
            body.fill('-'); // the buffer is free again once respond() returns
        });
        if (server->listen(QHostAddress::LocalHost, 0))
            port = server->port();
    });
    QVERIFY(port != 0);
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(client.waitForConnected(5000));
    for (const QByteArray &path : { QByteArrayLiteral("/first"), QByteArrayLiteral("/second") }) {
        int status = 0;
        const QByteArray body = get(client, path, &status);
        QCOMPARE(status, 200);
        QCOMPARE(body.size(), path.size() + 4 * 1024 * 1024);
        QVERIFY(body.startsWith(path));
        QCOMPARE(body.at(path.size() + 4096 * 27), 'b');
        QCOMPARE(body.back(), 'x');
    }
    loop.run([&] { server.reset(); });
}

QTEST_GUILESS_MAIN(TestEpollEventDispatcher)
#include "tst_epolleventdispatcher.moc"
