// SPDX-License-Identifier: MIT
#pragma once
// A listener on a 127.0.0.x address that meets every request with the same bytes, then closes: the
// canned answer (a redirect, a hostile status line, a 10 MB header) that a client test needs. Counts the
// connections it accepted. Lives in the test's thread; header-only, no moc.

#include <QByteArray>
#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

#include <utility>

namespace pd::test {

class CannedAnswerServer {
public:
    explicit CannedAnswerServer(QByteArray cannedAnswer = {})
        : m_answer(std::move(cannedAnswer))
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                ++m_connections;
                const QByteArray reply = m_answer;
                QObject::connect(s, &QTcpSocket::readyRead, s, [s, reply] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return; // the whole request head first
                    s->write(reply);
                    s->disconnectFromHost();
                });
                QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }

    bool listen(const QString &address) { return m_server.listen(QHostAddress(address), 0); }
    quint16 port() const { return m_server.serverPort(); }
    void setAnswer(const QByteArray &answer) { m_answer = answer; }
    int connections() const { return m_connections; }

private:
    QTcpServer m_server;
    QByteArray m_answer;
    int m_connections = 0;
};

} // namespace pd::test
