// SPDX-License-Identifier: MIT
#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QTimer>

class QTcpServer;
class QTcpSocket;

// The DP group of separate `pdsim engine` processes (docs/pdsim-engine.md "DP groups"): a TCP rendezvous at
// the DP master address and port, as vLLM's ranks meet at theirs. Rank 0 listens; every other rank
// connects (retrying while rank 0 is not up yet) and says which rank it is. When all dp_size ranks are
// there, rank 0 tells everyone the group formed. After that a closed connection is a dead rank: rank 0
// sees its client go and tells the others; a client that loses rank 0 knows rank 0 died. Line protocol:
//   client -> master  "JOIN <rank>\n"
//   master -> client  "JOINED <count>\n", "FORMED\n", "BROKEN <dead rank>\n"
// Simulated timeouts (scaled by the time scale): no group by the join timeout -> joinTimedOut(); a
// broken group -> watchdogFired() after the watchdog timeout.
// Thread contract: one thread (the engine's).
namespace pd::sim {

class DpRendezvous final : public QObject {
    Q_OBJECT
public:
    struct Options {
        int dpSize = 1;
        int dpRank = 0;
        QHostAddress masterHost;
        quint16 masterPort = 0;
        double timeScale = 1;
        double joinTimeoutSeconds = 1800;
        double watchdogTimeoutSeconds = 1800;
    };
    explicit DpRendezvous(Options options, QObject *parent = nullptr);
    ~DpRendezvous() override;

    // Rank 0: false with *error when the master port cannot be bound.
    bool start(QString *error);
    int joined() const { return m_joined; }
    const Options &options() const { return m_options; }

Q_SIGNALS:
    void formed();
    void broken(int deadRank);
    void joinTimedOut(int joined);
    void watchdogFired(int deadRank);

private:
    struct Peer {
        QTcpSocket *socket = nullptr;
        int rank = -1;
        QByteArray buffer;
    };
    void acceptPeers();
    void peerReadable(QTcpSocket *socket);
    void peerGone(QTcpSocket *socket);
    void broadcast(const QByteArray &line);
    void connectToMaster();
    void masterReadable();
    void masterGone();
    void becomeFormed();
    void breakGroup(int deadRank);
    int realMs(double simulatedSeconds) const;

    Options m_options;
    QTcpServer *m_server = nullptr;
    QList<Peer> m_peers;
    QTcpSocket *m_master = nullptr;
    QByteArray m_masterBuffer;
    QTimer m_joinTimer;
    QTimer m_watchdogTimer;
    QTimer m_retryTimer;
    int m_joined = 1;
    bool m_formed = false;
    int m_deadRank = -1;
};

} // namespace pd::sim
