// SPDX-License-Identifier: MIT
#pragma once

// A webhook receiver for tests: an HTTP/1.1 server on 127.0.0.1 that keeps every POST body and answers
// each with the next status of a script (200 once the script is used up), keep-alive included.
#include <QHostAddress>
#include <QList>
#include <QTcpServer>
#include <QTcpSocket>

namespace pd::test {

class WebhookReceiver : public QObject {
public:
    QList<QByteArray> bodies;
    QList<int> script; // statuses to answer, in order; then 200

    bool listen() { return m_server.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/hook").arg(m_server.serverPort()); }
    int requests() const { return m_requests; }

    WebhookReceiver()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

private:
    void serve(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
            if (headerEnd < 0)
                return;
            qsizetype length = 0;
            for (const QByteArray &line : buffer.left(headerEnd).split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buffer.size() < headerEnd + 4 + length)
                return;
            bodies.append(buffer.mid(headerEnd + 4, length));
            buffer.remove(0, headerEnd + 4 + length);
            const int status = script.isEmpty() ? 200 : script.takeFirst();
            ++m_requests;
            if (status == 200)
                bodies.last().detach();
            else
                bodies.removeLast(); // not accepted: the sender must try again
            socket->write(QStringLiteral("HTTP/1.1 %1 X\r\nContent-Length: 0\r\n\r\n").arg(status).toLatin1());
        }
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_requests = 0;
};

} // namespace pd::test
