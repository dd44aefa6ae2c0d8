// SPDX-License-Identifier: MIT
#pragma once
// A tiny blocking-looking HTTP/1.1 client for simulator tests: it pumps the event loop (the server lives
// in the same thread) with bounded waits, keeps the connection alive and decodes chunked bodies.

#include <QElapsedTimer>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTest>

struct SimReply {
    int status = 0; // 0: no answer (refused, closed, timed out)
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QByteArray header(QByteArrayView name) const
    {
        for (const auto &h : headers) {
            if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        }
        return {};
    }
};

class SimClient {
public:
    explicit SimClient(quint16 port, QHostAddress host = QHostAddress(QHostAddress::LocalHost))
        : m_port(port), m_host(host)
    {
    }
    bool connect(int timeoutMs = 3000)
    {
        if (m_socket.state() == QAbstractSocket::ConnectedState)
            return true;
        m_socket.abort();
        m_buffer.clear();
        m_socket.connectToHost(m_host, m_port);
        QElapsedTimer t;
        t.start();
        while (m_socket.state() != QAbstractSocket::ConnectedState && t.elapsed() < timeoutMs) {
            if (m_socket.state() == QAbstractSocket::UnconnectedState)
                return false;
            QTest::qWait(2);
        }
        return m_socket.state() == QAbstractSocket::ConnectedState;
    }
    void send(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
              const QByteArray &extraHeaders = {})
    {
        QByteArray req = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extraHeaders;
        if (!body.isEmpty() || method == "POST")
            req += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                   + "\r\n";
        req += "\r\n" + body;
        m_socket.write(req);
    }
    SimReply request(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                     int timeoutMs = 10000, const QByteArray &extraHeaders = {})
    {
        if (!connect())
            return {};
        send(method, path, body, extraHeaders);
        return read(timeoutMs);
    }
    SimReply read(int timeoutMs = 10000)
    {
        QElapsedTimer t;
        t.start();
        SimReply r;
        for (;;) {
            m_buffer += m_socket.readAll();
            const qsizetype used = parse(r);
            if (used > 0) {
                m_buffer.remove(0, used);
                return r;
            }
            if (t.elapsed() > timeoutMs
                || (m_socket.state() != QAbstractSocket::ConnectedState && m_socket.bytesAvailable() == 0))
                return {};
            QTest::qWait(1);
        }
    }
    // Bytes received so far without parsing (for streams observed while they run).
    QByteArray &rawBuffer()
    {
        m_buffer += m_socket.readAll();
        return m_buffer;
    }
    QTcpSocket &socket() { return m_socket; }

private:
    qsizetype parse(SimReply &out) const
    {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return 0;
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        out = {};
        out.status = lines.value(0).split(' ').value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype c = line.indexOf(':');
            out.headers.append({line.left(c), line.mid(c + 1).trimmed()});
        }
        qsizetype pos = end + 4;
        if (out.header("transfer-encoding") == "chunked") {
            for (;;) {
                const qsizetype le = m_buffer.indexOf("\r\n", pos);
                if (le < 0)
                    return 0;
                const qsizetype n = m_buffer.mid(pos, le - pos).toLongLong(nullptr, 16);
                if (m_buffer.size() < le + 2 + n + 2)
                    return 0;
                out.body += m_buffer.mid(le + 2, n);
                pos = le + 2 + n + 2;
                if (n == 0)
                    return pos;
            }
        }
        const qsizetype len = out.header("content-length").toLongLong();
        if (m_buffer.size() < pos + len)
            return 0;
        out.body = m_buffer.mid(pos, len);
        return pos + len;
    }

    quint16 m_port;
    QHostAddress m_host;
    QTcpSocket m_socket;
    QByteArray m_buffer;
};
