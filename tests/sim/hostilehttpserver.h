// SPDX-License-Identifier: MIT
#pragma once
// A small scripted HTTP server for the poller's client tests: each behaviour is one way a real server
// (or a broken one) answers GET /metrics and /health. Lives in the test's thread; the poller runs on
// its own, so the test spins its event loop while it waits.

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

#include <functional>
#include <memory>

class HostileHttpServer final : public QObject {
public:
    enum class Behavior {
        KeepAlive, // HTTP/1.1, Content-Length, the connection kept
        Chunked, // chunked with odd chunk sizes, extensions and a trailer, in separate writes
        SplitHead, // the status line and headers in pieces, 5 ms apart
        CloseAfterHeaders, // promises a body, sends the headers, closes
        CloseBetweenPolls, // answers keep-alive, then closes the idle connection 30 ms later
        DropSecondRequest, // a kept-alive connection's second request is met with a close, no answer
        ConnectionClose, // HTTP/1.1 with Connection: close, closes after each answer
        Http10UntilClose, // HTTP/1.0, no Content-Length, the body ends when the connection closes
        HugeLength, // Content-Length 10 MB (sends it all)
        HugeChunked, // 10 MB chunked, no length announced
        NeverAnswers, // reads the request, never writes
        ResetMidHead, // half the headers, then a TCP reset
        Status503, // 503 for /metrics, 200 for /health
        NotHttp, // a line of text, not HTTP
    };

    HostileHttpServer(Behavior behavior, QByteArray body, const QHostAddress &address)
        : m_behavior(behavior)
        , m_body(std::move(body))
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++m_connections;
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    m_pending[socket] += socket->readAll();
                    // Looked up again after every answer: an answer that closes may drop the entry.
                    for (auto it = m_pending.find(socket); it != m_pending.end(); it = m_pending.find(socket)) {
                        const qsizetype end = it->indexOf("\r\n\r\n");
                        if (end < 0)
                            break;
                        const QByteArray request = it->left(end);
                        it->remove(0, end + 4);
                        ++m_requests;
                        answer(socket, request, ++m_requestsOn[socket]);
                    }
                });
                connect(socket, &QTcpSocket::disconnected, socket, [this, socket] {
                    m_pending.remove(socket);
                    m_requestsOn.remove(socket);
                    socket->deleteLater();
                });
            }
        });
        // The 10 MB answers are built before any poll: building one takes long enough to stall this
        // thread (and every other server in it) past a poll's timeout.
        if (m_behavior == Behavior::HugeLength)
            m_huge = lengthAnswer(hugeBody());
        else if (m_behavior == Behavior::HugeChunked)
            m_huge
                = head("HTTP/1.1 200 OK", "Transfer-Encoding: chunked\r\n") + chunked(hugeBody(), { 65536 }, nullptr);
        m_server.listen(address, 0);
    }

    quint16 port() const { return m_server.serverPort(); }
    int connections() const { return m_connections; }
    int requests() const { return m_requests; }

private:
    static QByteArray head(const QByteArray &statusLine, const QByteArray &headers)
    {
        return statusLine + "\r\nServer: hostile\r\nContent-Type: text/plain; version=0.0.4\r\n" + headers + "\r\n";
    }

    QByteArray lengthAnswer(const QByteArray &body, const QByteArray &extra = {}) const
    {
        return head("HTTP/1.1 200 OK", "Content-Length: " + QByteArray::number(body.size()) + "\r\n" + extra) + body;
    }

    // Writes `pieces` one event-loop turn (and `gapMs`) apart, then runs `after`.
    static void writeSlowly(QTcpSocket *socket, QList<QByteArray> pieces, int gapMs, std::function<void()> after = {})
    {
        if (pieces.isEmpty()) {
            if (after)
                after();
            return;
        }
        socket->write(pieces.takeFirst());
        socket->flush();
        QPointer<QTcpSocket> guard(socket);
        QTimer::singleShot(gapMs, socket, [guard, pieces, gapMs, after] {
            if (guard)
                writeSlowly(guard, pieces, gapMs, after);
        });
    }

    static QByteArray chunked(const QByteArray &body, const QList<int> &sizes, QList<QByteArray> *pieces)
    {
        QByteArray all;
        qsizetype at = 0;
        int i = 0;
        while (at < body.size()) {
            const int size = int(std::min<qsizetype>(sizes.at(i++ % sizes.size()), body.size() - at));
            // Upper-case hex on odd chunks, an extension on every third.
            QByteArray line = QByteArray::number(size, 16);
            if (i % 2)
                line = line.toUpper();
            if (i % 3 == 0)
                line += ";note=\"odd\"";
            const QByteArray chunk = line + "\r\n" + body.mid(at, size) + "\r\n";
            if (pieces)
                pieces->append(chunk);
            all += chunk;
            at += size;
        }
        const QByteArray last = "0\r\nX-Trailer: done\r\n\r\n";
        if (pieces)
            pieces->append(last);
        return all + last;
    }

    void answer(QTcpSocket *socket, const QByteArray &request, int nthOnConnection)
    {
        const bool health = request.startsWith("GET /health");
        const QByteArray body = health ? QByteArray() : m_body;
        switch (m_behavior) {
        case Behavior::KeepAlive:
            socket->write(lengthAnswer(body));
            return;
        case Behavior::Chunked: {
            QList<QByteArray> pieces { head("HTTP/1.1 200 OK", "Transfer-Encoding: chunked\r\n") };
            chunked(body, { 1, 7, 4093, 3, 65537, 250 }, &pieces);
            // Split a few chunks mid-way too, so a size line or CRLF falls across reads.
            QList<QByteArray> split;
            for (const QByteArray &p : pieces) {
                if (p.size() > 8 && split.size() % 2) {
                    split.append(p.left(p.size() / 2 + 1));
                    split.append(p.mid(p.size() / 2 + 1));
                } else {
                    split.append(p);
                }
            }
            writeSlowly(socket, split, 1);
            return;
        }
        case Behavior::SplitHead: {
            const QByteArray all = lengthAnswer(body);
            const qsizetype headEnd = all.indexOf("\r\n\r\n") + 4;
            QList<QByteArray> pieces { all.left(3), all.mid(3, 10), all.mid(13, headEnd - 13 - 3),
                all.mid(headEnd - 3, 2), all.mid(headEnd - 1, 1), all.mid(headEnd) };
            writeSlowly(socket, pieces, 5);
            return;
        }
        case Behavior::CloseAfterHeaders: {
            const QByteArray all = lengthAnswer(body);
            socket->write(all.left(all.indexOf("\r\n\r\n") + 4));
            socket->disconnectFromHost();
            return;
        }
        case Behavior::CloseBetweenPolls: {
            socket->write(lengthAnswer(body));
            QPointer<QTcpSocket> guard(socket);
            QTimer::singleShot(30, socket, [guard] {
                if (guard)
                    guard->disconnectFromHost();
            });
            return;
        }
        case Behavior::DropSecondRequest:
            if (nthOnConnection >= 2) {
                socket->disconnectFromHost(); // as a server whose keep-alive timer fired just now
                return;
            }
            socket->write(lengthAnswer(body));
            return;
        case Behavior::ConnectionClose:
            socket->write(lengthAnswer(body, "Connection: close\r\n"));
            socket->disconnectFromHost();
            return;
        case Behavior::Http10UntilClose:
            socket->write(head("HTTP/1.0 200 OK", {}) + body);
            socket->disconnectFromHost();
            return;
        case Behavior::HugeLength:
        case Behavior::HugeChunked:
            socket->write(health ? lengthAnswer(body) : m_huge);
            return;
        case Behavior::NeverAnswers:
            return;
        case Behavior::ResetMidHead: {
            const QByteArray all = lengthAnswer(body);
            socket->write(all.left(40));
            socket->flush();
            const linger hard { 1, 0 }; // close with RST
            setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
            socket->abort();
            return;
        }
        case Behavior::Status503:
            if (health)
                socket->write(lengthAnswer({}));
            else
                socket->write(head("HTTP/1.1 503 Service Unavailable", "Content-Length: 11\r\n") + "unavailable");
            return;
        case Behavior::NotHttp:
            socket->write("SSH-2.0-OpenSSH_9.2\r\n\r\n");
            socket->disconnectFromHost();
            return;
        }
    }

    QByteArray hugeBody() const
    {
        QByteArray huge;
        huge.reserve(10 * 1024 * 1024 + m_body.size());
        while (huge.size() < 10 * 1024 * 1024)
            huge += m_body;
        return huge;
    }

    Behavior m_behavior;
    QByteArray m_body;
    QByteArray m_huge; // the 10 MB answer, built once
    // Before the server: its sockets, deleted with it, still reach these from their disconnected().
    QHash<QTcpSocket *, QByteArray> m_pending;
    QHash<QTcpSocket *, int> m_requestsOn;
    QTcpServer m_server;
    int m_connections = 0;
    int m_requests = 0;
};
