// SPDX-License-Identifier: MIT
#pragma once
// A tiny blocking-looking HTTP/1.1 client for simulator tests: it pumps the event loop (the server lives
// in the same thread) with bounded waits, keeps the connection alive and decodes chunked bodies. The
// response parser is shared with tst_httpserver, which checks the server's bytes on a raw socket.

#include "waituntil.h"

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

// Parses one response at the front of buf: the bytes it took, 0 while it is incomplete, -1 when its
// chunked framing is broken (a size that is not hex, a chunk without its CRLF).
inline qsizetype parseSimReply(const QByteArray &buf, SimReply &out)
{
    const qsizetype end = buf.indexOf("\r\n\r\n");
    if (end < 0)
        return 0;
    const QList<QByteArray> lines = buf.left(end).split('\n');
    out = {};
    out.status = lines.value(0).split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        out.headers.append({ line.left(colon), line.mid(colon + 1).trimmed() });
    }
    qsizetype pos = end + 4;
    if (out.header("transfer-encoding") == "chunked") {
        for (;;) {
            const qsizetype le = buf.indexOf("\r\n", pos);
            if (le < 0)
                return 0;
            bool ok = false;
            const qsizetype n = buf.mid(pos, le - pos).toLongLong(&ok, 16);
            if (!ok)
                return -1;
            if (buf.size() < le + 2 + n + 2)
                return 0;
            if (buf.mid(le + 2 + n, 2) != "\r\n")
                return -1;
            out.body += buf.mid(le + 2, n);
            pos = le + 2 + n + 2;
            if (n == 0)
                return pos;
        }
    }
    const qsizetype len = out.header("content-length").toLongLong();
    if (buf.size() < pos + len)
        return 0;
    out.body = buf.mid(pos, len);
    return pos + len;
}

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
        pd::test::waitUntil(
            [this] {
                return m_socket.state() == QAbstractSocket::ConnectedState
                    || m_socket.state() == QAbstractSocket::UnconnectedState;
            },
            timeoutMs);
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
        SimReply r;
        qsizetype used = 0;
        pd::test::waitUntil(
            [&] {
                m_buffer += m_socket.readAll();
                used = parseSimReply(m_buffer, r);
                return used != 0
                    || (m_socket.state() != QAbstractSocket::ConnectedState && m_socket.bytesAvailable() == 0);
            },
            timeoutMs);
        if (used <= 0)
            return {};
        m_buffer.remove(0, used);
        return r;
    }
    // The next response into `out`: false when none came whole within timeoutMs.
    bool next(SimReply &out, int timeoutMs = 5000)
    {
        out = read(timeoutMs);
        return out.status != 0;
    }
    // Bytes as they are (a request cut anywhere, pipelined, malformed).
    void sendRaw(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }
    // True once the server has closed the connection (within timeoutMs); what came before is kept.
    bool waitClosed(int timeoutMs = 5000)
    {
        return pd::test::waitUntil(
            [this] {
                m_buffer += m_socket.readAll();
                return m_socket.state() != QAbstractSocket::ConnectedState;
            },
            timeoutMs);
    }
    // Bytes received so far without parsing (for streams observed while they run).
    QByteArray &rawBuffer()
    {
        m_buffer += m_socket.readAll();
        return m_buffer;
    }
    QTcpSocket &socket() { return m_socket; }

private:
    quint16 m_port;
    QHostAddress m_host;
    QTcpSocket m_socket;
    QByteArray m_buffer;
};
