// SPDX-License-Identifier: MIT
#include "dprendezvous.h"

#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>

namespace pd::sim {

DpRendezvous::DpRendezvous(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    // Precise: a coarse timer may end a rank started later before one started earlier (5 % slack).
    m_joinTimer.setTimerType(Qt::PreciseTimer);
    m_watchdogTimer.setTimerType(Qt::PreciseTimer);
    m_joinTimer.setSingleShot(true);
    connect(&m_joinTimer, &QTimer::timeout, this, [this] {
        if (m_formed)
            return;
        if (m_server)
            m_server->close();
        Q_EMIT joinTimedOut(m_joined);
    });
    m_watchdogTimer.setSingleShot(true);
    connect(&m_watchdogTimer, &QTimer::timeout, this, [this] { Q_EMIT watchdogFired(m_deadRank); });
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &DpRendezvous::connectToMaster);
}

DpRendezvous::~DpRendezvous() = default;

int DpRendezvous::realMs(double simulatedSeconds) const
{
    return int(std::clamp(simulatedSeconds / std::max(1e-9, m_options.timeScale) * 1000.0, 1.0, 2e9));
}

bool DpRendezvous::start(QString *error)
{
    m_joinTimer.start(realMs(m_options.joinTimeoutSeconds));
    if (m_options.dpRank != 0) {
        connectToMaster();
        return true;
    }
    m_server = new QTcpServer(this);
    if (!m_server->listen(m_options.masterHost, m_options.masterPort)) {
        *error = QStringLiteral("DP master %1:%2: %3")
                     .arg(m_options.masterHost.toString())
                     .arg(m_options.masterPort)
                     .arg(m_server->errorString());
        return false;
    }
    connect(m_server, &QTcpServer::newConnection, this, &DpRendezvous::acceptPeers);
    if (m_options.dpSize <= 1)
        becomeFormed();
    return true;
}

void DpRendezvous::acceptPeers()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        if (m_formed) { // the group is complete: a late rank is a stranger
            socket->abort();
            socket->deleteLater();
            continue;
        }
        m_peers.append({socket, -1, {}});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { peerReadable(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { peerGone(socket); });
    }
}

void DpRendezvous::peerReadable(QTcpSocket *socket)
{
    const auto peer = std::find_if(m_peers.begin(), m_peers.end(), [socket](const Peer &p) { return p.socket == socket; });
    if (peer == m_peers.end())
        return;
    peer->buffer += socket->readAll();
    qsizetype nl;
    while ((nl = peer->buffer.indexOf('\n')) >= 0) {
        const QByteArray line = peer->buffer.left(nl).trimmed();
        peer->buffer.remove(0, nl + 1);
        if (!line.startsWith("JOIN "))
            continue;
        bool ok = false;
        const int rank = line.mid(5).toInt(&ok);
        const bool taken = std::any_of(m_peers.begin(), m_peers.end(), [rank](const Peer &p) { return p.rank == rank; });
        if (!ok || rank <= 0 || rank >= m_options.dpSize || taken) {
            socket->abort(); // not a rank of this group, or one that is already here
            return;
        }
        peer->rank = rank;
    }
    m_joined = 1 + int(std::count_if(m_peers.begin(), m_peers.end(), [](const Peer &p) { return p.rank > 0; }));
    broadcast("JOINED " + QByteArray::number(m_joined) + '\n');
    if (m_joined == m_options.dpSize)
        becomeFormed();
}

void DpRendezvous::peerGone(QTcpSocket *socket)
{
    const auto peer = std::find_if(m_peers.begin(), m_peers.end(), [socket](const Peer &p) { return p.socket == socket; });
    if (peer == m_peers.end())
        return;
    const int rank = peer->rank;
    m_peers.erase(peer);
    socket->deleteLater();
    if (!m_formed) {
        m_joined = 1 + int(std::count_if(m_peers.begin(), m_peers.end(), [](const Peer &p) { return p.rank > 0; }));
        broadcast("JOINED " + QByteArray::number(m_joined) + '\n');
        return;
    }
    if (rank > 0)
        breakGroup(rank);
}

void DpRendezvous::broadcast(const QByteArray &line)
{
    for (const Peer &p : std::as_const(m_peers)) {
        if (p.rank > 0)
            p.socket->write(line);
    }
}

void DpRendezvous::connectToMaster()
{
    if (m_formed || !m_joinTimer.isActive())
        return;
    if (m_master) {
        m_master->disconnect(this);
        m_master->abort();
        m_master->deleteLater();
    }
    m_master = new QTcpSocket(this);
    m_masterBuffer.clear();
    QTcpSocket *socket = m_master;
    connect(socket, &QTcpSocket::connected, this, [this, socket] {
        socket->write("JOIN " + QByteArray::number(m_options.dpRank) + '\n');
    });
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
        if (socket == m_master)
            masterReadable();
    });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        if (socket == m_master)
            masterGone();
    });
    connect(socket, &QTcpSocket::errorOccurred, this, [this, socket](QAbstractSocket::SocketError) {
        // Refused (rank 0 not up yet) or lost before the group formed: try again shortly (the socket's
        // state may still say connecting when the error comes, so do not ask it).
        if (socket == m_master && !m_formed)
            m_retryTimer.start(100);
    });
    socket->connectToHost(m_options.masterHost, m_options.masterPort);
}

void DpRendezvous::masterReadable()
{
    m_masterBuffer += m_master->readAll();
    qsizetype nl;
    while ((nl = m_masterBuffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_masterBuffer.left(nl).trimmed();
        m_masterBuffer.remove(0, nl + 1);
        if (line.startsWith("JOINED "))
            m_joined = line.mid(7).toInt();
        else if (line == "FORMED")
            becomeFormed();
        else if (line.startsWith("BROKEN "))
            breakGroup(line.mid(7).toInt());
    }
}

void DpRendezvous::masterGone()
{
    if (!m_formed) {
        m_retryTimer.start(100); // rank 0 went away before the group formed: wait for the next one
        return;
    }
    breakGroup(0);
}

void DpRendezvous::becomeFormed()
{
    if (m_formed)
        return;
    m_formed = true;
    m_joinTimer.stop();
    broadcast("FORMED\n");
    Q_EMIT formed();
}

void DpRendezvous::breakGroup(int deadRank)
{
    if (m_deadRank >= 0)
        return;
    m_deadRank = deadRank;
    if (m_server)
        broadcast("BROKEN " + QByteArray::number(deadRank) + '\n');
    m_watchdogTimer.start(realMs(m_options.watchdogTimeoutSeconds));
    Q_EMIT broken(deadRank);
}

} // namespace pd::sim
