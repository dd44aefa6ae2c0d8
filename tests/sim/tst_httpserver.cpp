// SPDX-License-Identifier: MIT
// The simulator's HTTP/1.1 server, driven by a raw TCP client so every byte on the wire is checked.
#include "http/httpserver.h"
#include "simtestclient.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcntl.h>

using pd::sim::HttpRequest;
using pd::sim::HttpResponderPtr;
using pd::sim::HttpServer;

namespace {

// The simulator tests' client, connected at once, its send() the raw one: every byte is the test's.
class Client : public SimClient {
public:
    explicit Client(quint16 port)
        : SimClient(port)
        , m_connected(connect(5000))
    {
    }
    bool isConnected() const { return m_connected; }
    void send(const QByteArray &bytes) { sendRaw(bytes); }
    QByteArray &buffer() { return rawBuffer(); }

private:
    bool m_connected;
};

QByteArray get(const QByteArray &path, const QByteArray &extra = {})
{
    return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "\r\n";
}

// An answer far larger than the kernel's socket buffers: most of it waits in the server's own queue.
constexpr qsizetype kBigBytes = 16 * 1024 * 1024;

QByteArray bigBody()
{
    QByteArray body(kBigBytes, Qt::Uninitialized);
    for (qsizetype i = 0; i < body.size(); ++i)
        body[i] = char('a' + i % 23);
    return body;
}

// A plain-socket client with a small receive buffer that reads only when the test says, running the
// event loop (the server's) between reads.
class SlowClient {
public:
    explicit SlowClient(quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int small = 4096;
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_connected = ::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
        ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    }
    ~SlowClient() { close(); }
    bool isConnected() const { return m_connected; }
    bool send(const QByteArray &bytes)
    {
        return ::send(m_fd, bytes.constData(), std::size_t(bytes.size()), MSG_NOSIGNAL) == bytes.size();
    }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    // Reads until `total` bytes arrived (true) or the server closed or 20 s passed (false); with
    // untilClosed, until the server closes the connection.
    bool read(qsizetype total, bool untilClosed = false)
    {
        QDeadlineTimer deadline(20000);
        while (untilClosed || m_buffer.size() < total) {
            char chunk[2048]; // small reads: the server meets a full socket many times
            const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
            if (n > 0) {
                m_buffer.append(chunk, n);
                continue;
            }
            if (n == 0) {
                m_closed = true;
                return untilClosed || m_buffer.size() >= total;
            }
            if (deadline.hasExpired())
                return false;
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        return true;
    }
    QByteArray &buffer() { return m_buffer; }
    // The body of the next Content-Length answer; a null array when it does not come.
    QByteArray nextAnswer();
    bool closedByServer() const { return m_closed; }

private:
    int m_fd = -1;
    bool m_connected = false;
    bool m_closed = false;
    QByteArray m_buffer;
};

// Takes one Content-Length answer off the front of `buffer`; its body, or a null array when incomplete.
QByteArray takeAnswer(QByteArray &buffer)
{
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return {};
    const QByteArray head = buffer.first(headEnd).toLower();
    const qsizetype at = head.indexOf("content-length: ");
    if (at < 0)
        return {};
    const qsizetype lineEnd = head.indexOf("\r\n", at);
    const qsizetype length = head.mid(at + 16, lineEnd < 0 ? -1 : lineEnd - at - 16).toLongLong();
    if (buffer.size() < headEnd + 4 + length)
        return {};
    QByteArray body = buffer.mid(headEnd + 4, length);
    buffer.remove(0, headEnd + 4 + length);
    return body.isNull() ? QByteArray("") : body;
}

QByteArray SlowClient::nextAnswer()
{
    for (;;) {
        QByteArray body = takeAnswer(m_buffer);
        if (!body.isNull() || !read(m_buffer.size() + 1))
            return body;
    }
}

} // namespace

class TestHttpServer final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void keepAliveServesSequentialRequests();
    void pipelinedRequestsAnswerInOrder();
    void bodySplitAcrossWrites();
    void connectionCloseIsHonoured();
    void http10ClosesByDefault();
    void chunkedFraming();
    void malformedRequestsGet400_data();
    void malformedRequestsGet400();
    void oversizedBodyGets413();
    void clientGoneMidStream();
    void closeDropsConnections();
    void headerLookupIsCaseInsensitive();
    void slowReaderGetsWholeAnswerThenTheNext();
    void slowReaderGetsWholeChunkedStream();
    void connectionCloseAfterQueuedAnswer();
    void clientVanishesMidAnswer();

private:
    std::unique_ptr<HttpServer> m_server;
    QList<HttpRequest> m_requests;
    QList<HttpResponderPtr> m_pending;
};

void TestHttpServer::init()
{
    m_server = std::make_unique<HttpServer>();
    m_requests.clear();
    m_pending.clear();
    m_server->setHandler([this](const HttpRequest &req, const HttpResponderPtr &res) {
        m_requests.append(req);
        if (req.path == "/echo") {
            res->respond(200, "text/plain", req.body);
        } else if (req.path == "/later") {
            // Answer after the event loop ran: a later request must still wait its turn.
            QTimer::singleShot(30, res.get(), [res] { res->respond(200, "text/plain", "later"); });
        } else if (req.path == "/stream") {
            res->beginChunked(200, "text/event-stream");
            res->writeChunk("data: one\n\n");
            res->writeChunk(QByteArray());      // empty chunks are skipped, not a terminator
            res->writeChunk("data: [DONE]\n\n");
            res->endChunked();
        } else if (req.path == "/big") {
            QByteArray body = bigBody();
            res->respond(200, "text/plain", body);
            body.fill('x'); // the caller's buffer may be reused once respond() returns
        } else if (req.path == "/bigstream") {
            res->beginChunked(200, "text/event-stream");
            for (char c : QByteArrayView("wxyz"))
                res->writeChunk(QByteArray(1024 * 1024, c));
            res->endChunked();
        } else if (req.path == "/hold") {
            res->beginChunked(200, "text/event-stream");
            res->writeChunk("data: first\n\n");
            m_pending.append(res);
        } else {
            res->respond(200, "text/plain", req.path);
        }
    });
    QVERIFY(m_server->listen(QHostAddress::LocalHost, 0));
    QVERIFY(m_server->port() != 0);
}

void TestHttpServer::cleanup()
{
    m_pending.clear();
    m_server.reset();
}

void TestHttpServer::keepAliveServesSequentialRequests()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    SimReply r;
    c.send(get("/a"));
    QVERIFY(c.next(r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray("/a"));
    QVERIFY(r.header("connection").isEmpty());
    c.send(get("/b?x=1"));
    QVERIFY(c.next(r));
    QCOMPARE(r.body, QByteArray("/b"));
    QCOMPARE(m_requests.size(), 2);
    QCOMPARE(m_requests[1].query, QByteArray("x=1"));
    QCOMPARE(c.socket().state(), QAbstractSocket::ConnectedState);
    QCOMPARE(m_server->connectionCount(), 1);
}

void TestHttpServer::pipelinedRequestsAnswerInOrder()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    // Both requests in one segment: the first is answered late, the second at once when its turn comes.
    c.send(get("/later") + get("/second"));
    SimReply r1, r2;
    QVERIFY(c.next(r1));
    QVERIFY(c.next(r2));
    QCOMPARE(r1.body, QByteArray("later"));
    QCOMPARE(r2.body, QByteArray("/second"));
}

void TestHttpServer::bodySplitAcrossWrites()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    const QByteArray body = QByteArray(3000, 'x');
    c.send("POST /echo HTTP/1.1\r\nContent-Length: 3000\r\n");
    QTRY_COMPARE(m_server->connectionCount(), 1); // the head's first lines reach a connection of their own
    c.send("Content-Type: text/plain\r\n\r\n" + body.left(1000));
    QTRY_COMPARE(m_server->connectionCount(), 1);
    c.send(body.mid(1000));
    SimReply r;
    QVERIFY(c.next(r));
    QCOMPARE(r.body, body);
    QCOMPARE(m_requests.size(), 1);
    QCOMPARE(m_requests[0].header("content-type"), QByteArray("text/plain"));
}

void TestHttpServer::connectionCloseIsHonoured()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    c.send(get("/a", "Connection: close\r\n") + get("/ignored"));
    SimReply r;
    QVERIFY(c.next(r));
    QCOMPARE(r.header("connection"), QByteArray("close"));
    QVERIFY(c.waitClosed());
    QCOMPARE(m_requests.size(), 1);
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void TestHttpServer::http10ClosesByDefault()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    c.send("GET /old HTTP/1.0\r\n\r\n");
    SimReply r;
    QVERIFY(c.next(r));
    QCOMPARE(r.body, QByteArray("/old"));
    QVERIFY(c.waitClosed());
}

void TestHttpServer::chunkedFraming()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    c.send(get("/stream") + get("/after"));
    // Exact bytes on the wire: headers, two chunks, the terminating zero chunk, then the next answer.
    QTRY_VERIFY(c.buffer().append(c.socket().readAll()).contains("/after"));
    const QByteArray wire = c.buffer();
    const qsizetype bodyStart = wire.indexOf("\r\n\r\n") + 4;
    QVERIFY(wire.left(bodyStart).contains("transfer-encoding: chunked\r\n"));
    QVERIFY(!wire.left(bodyStart).contains("content-length"));
    const QByteArray expected = "b\r\ndata: one\n\n\r\ne\r\ndata: [DONE]\n\n\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n";
    QCOMPARE(wire.mid(bodyStart, expected.size()), expected);
    SimReply r1, r2;
    QVERIFY(c.next(r1));
    QVERIFY(c.next(r2));
    QCOMPARE(r1.body, QByteArray("data: one\n\ndata: [DONE]\n\n"));
    QCOMPARE(r2.body, QByteArray("/after"));
}

void TestHttpServer::malformedRequestsGet400_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::newRow("binary garbage") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\n\n", 11) << 400;
    QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << 400;
    QTest::newRow("bad target") << QByteArray("GET nopath HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("header without colon") << QByteArray("GET / HTTP/1.1\r\nBroken header\r\n\r\n") << 400;
    QTest::newRow("bad content-length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n") << 400;
    QTest::newRow("conflicting lengths")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab") << 400;
    QTest::newRow("bare LF lines") << QByteArray("GET / HTTP/1.1\nHost: x\n\n") << 400;
    QTest::newRow("HTTP/2 preface") << QByteArray("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") << 400;
    QTest::newRow("unsupported version") << QByteArray("GET / HTTP/3.0\r\n\r\n") << 505;
}

void TestHttpServer::malformedRequestsGet400()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    c.send(request);
    SimReply r;
    QVERIFY(c.next(r));
    QCOMPARE(r.status, status);
    QVERIFY(c.waitClosed());
    QVERIFY(m_requests.isEmpty());
}

void TestHttpServer::oversizedBodyGets413()
{
    m_server->setMaxRequestBytes(100);
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    c.send("POST /echo HTTP/1.1\r\nContent-Length: 101\r\n\r\n");
    SimReply r;
    QVERIFY(c.next(r));
    QCOMPARE(r.status, 413);
    QVERIFY(c.waitClosed());
}

void TestHttpServer::clientGoneMidStream()
{
    auto client = std::make_unique<Client>(m_server->port());
    QVERIFY(client->isConnected());
    client->send(get("/hold"));
    QTRY_COMPARE(m_pending.size(), 1);
    const HttpResponderPtr res = m_pending.first();
    QVERIFY(res->isOpen());
    QVERIFY(!res->isAnswered());
    QCOMPARE(m_server->busyConnectionCount(), 1);
    QSignalSpy gone(res.get(), &pd::sim::HttpResponder::clientGone);
    client.reset(); // the client goes away in the middle of the stream
    QVERIFY(gone.wait(5000));
    QVERIFY(!res->isOpen());
    // Writing to a gone client is a harmless no-op.
    res->writeChunk("data: late\n\n");
    res->endChunked();
    QVERIFY(res->isAnswered());
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void TestHttpServer::closeDropsConnections()
{
    Client c(m_server->port());
    QVERIFY(c.isConnected());
    c.send(get("/hold"));
    QTRY_COMPARE(m_pending.size(), 1);
    const quint16 port = m_server->port();
    m_server->close();
    QVERIFY(!m_server->isListening());
    QVERIFY(c.waitClosed());
    QVERIFY(!m_pending.first()->isOpen());
    QTcpSocket refused;
    refused.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(!refused.waitForConnected(2000));
}

void TestHttpServer::headerLookupIsCaseInsensitive()
{
    HttpRequest req;
    req.headers = {{"Authorization", "Bearer k"}, {"X-Other", "1"}};
    QCOMPARE(req.header("authorization"), QByteArray("Bearer k"));
    QCOMPARE(req.header("X-OTHER"), QByteArray("1"));
    QVERIFY(req.header("missing").isEmpty());
}

void TestHttpServer::slowReaderGetsWholeAnswerThenTheNext()
{
    SlowClient c(m_server->port());
    QVERIFY(c.isConnected());
    // Pipelined: /big is finished once handed over, so /a is answered at once, queued behind it.
    QVERIFY(c.send(get("/big") + get("/a")));
    QTRY_COMPARE(m_requests.size(), 2);
    const QByteArray big = c.nextAnswer();
    QCOMPARE(big.size(), kBigBytes);
    QVERIFY(big == bigBody());
    QCOMPARE(c.nextAnswer(), QByteArray("/a"));
    QCOMPARE(m_requests.size(), 2);
    QCOMPARE(m_server->connectionCount(), 1);
}

void TestHttpServer::slowReaderGetsWholeChunkedStream()
{
    SlowClient c(m_server->port());
    QVERIFY(c.isConnected());
    QVERIFY(c.send(get("/bigstream", "Connection: close\r\n")));
    QVERIFY(c.read(0, true));
    QVERIFY(c.closedByServer());
    QByteArray &wire = c.buffer();
    const qsizetype headEnd = wire.indexOf("\r\n\r\n");
    QVERIFY(headEnd > 0);
    QVERIFY(wire.first(headEnd).toLower().contains("transfer-encoding: chunked"));
    QByteArray decoded;
    qsizetype at = headEnd + 4;
    for (;;) {
        const qsizetype lineEnd = wire.indexOf("\r\n", at);
        QVERIFY(lineEnd > at);
        bool ok = false;
        const qsizetype size = wire.mid(at, lineEnd - at).toLongLong(&ok, 16);
        QVERIFY(ok);
        at = lineEnd + 2;
        if (size == 0)
            break;
        decoded += wire.mid(at, size);
        at += size;
        QCOMPARE(wire.mid(at, 2), QByteArray("\r\n"));
        at += 2;
    }
    QCOMPARE(wire.mid(at), QByteArray("\r\n"));
    QCOMPARE(decoded.size(), 4 * 1024 * 1024);
    QVERIFY(decoded
        == QByteArray(1024 * 1024, 'w') + QByteArray(1024 * 1024, 'x') + QByteArray(1024 * 1024, 'y')
            + QByteArray(1024 * 1024, 'z'));
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void TestHttpServer::connectionCloseAfterQueuedAnswer()
{
    SlowClient c(m_server->port());
    QVERIFY(c.isConnected());
    QVERIFY(c.send(get("/big", "Connection: close\r\n")));
    QTRY_COMPARE(m_requests.size(), 1);
    // The answer is finished but mostly queued: the connection stays until it is written out.
    QCOMPARE(m_server->busyConnectionCount(), 0);
    QVERIFY(c.read(0, true));
    QVERIFY(c.closedByServer());
    const QByteArray body = takeAnswer(c.buffer());
    QVERIFY(body == bigBody());
    QVERIFY(c.buffer().isEmpty());
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void TestHttpServer::clientVanishesMidAnswer()
{
    SlowClient c(m_server->port());
    QVERIFY(c.isConnected());
    QVERIFY(c.send(get("/big") + get("/a")));
    QTRY_COMPARE(m_requests.size(), 2);
    QVERIFY(c.read(64 * 1024));
    c.close(); // gone with most of the answer still queued at the server
    QTRY_COMPARE(m_server->connectionCount(), 0);
    // The server goes on serving others.
    Client other(m_server->port());
    QVERIFY(other.isConnected());
    other.send(get("/b"));
    SimReply r;
    QVERIFY(other.next(r));
    QCOMPARE(r.body, QByteArray("/b"));
}

QTEST_GUILESS_MAIN(TestHttpServer)
#include "tst_httpserver.moc"
