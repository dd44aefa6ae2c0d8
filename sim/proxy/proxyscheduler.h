// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/instancekey.h"

#include "proxyoptions.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pd::sim {

enum class ProxyRole { Prefill, Decode };

QString roleName(ProxyRole role); // "prefill" / "decode"

// The identity of an instance (core's proxyInstanceKey: "127.0.0.10" becomes "0.0.0.00", as in the real proxy).
inline QString instanceKey(const QString &host, int port)
{
    return pd::proxyInstanceKey(host, port);
}
inline QString instanceKey(const BackendAddress &address)
{
    return pd::proxyInstanceKey(address.host, address.port);
}

// A model of the real proxy's SharedProxyScheduler (spec §5): two role pools with a lazy-deletion
// min-heap each, the taint sets, the waiting nodes and the global in-flight count. Pure logic, no I/O.
class ProxyScheduler final {
public:
    static constexpr double kTaintedPriority = 1e15;

    struct Pick {
        QString key;
        BackendAddress address;
    };
    struct WaitingNode {
        QString key;
        ProxyRole role;
        BackendAddress address;
        int probes = 0;
    };
    enum class Activation { Activated, NotWaiting, TaintedNotInPool };

    // Scores charged per request (body bytes, §5.2).
    static double prefillScore(qsizetype requestLength);
    static double decodeScore(qsizetype requestLength);

    // Puts a server straight into the pool (command line); a key already in the pool is skipped.
    void addServer(ProxyRole role, const BackendAddress &address);

    QStringList instances(ProxyRole role) const; // "host:port" as given, insertion order
    QList<BackendAddress> addresses(ProxyRole role) const;
    int instanceCount(ProxyRole role) const;
    bool contains(ProxyRole role, const QString &key) const;
    bool isTainted(ProxyRole role, const QString &key) const;
    QStringList tainted(ProxyRole role) const; // keys, in taint order
    double priority(ProxyRole role, const QString &key) const;
    int heapSize(ProxyRole role) const;

    // Waiting nodes (async add).
    bool isWaiting(const QString &key) const;
    void addWaiting(ProxyRole role, const BackendAddress &address);
    QList<WaitingNode> waitingNodes() const; // snapshot, insertion order
    int recordFailedProbe(const QString &key); // returns the new probe count
    void removeWaiting(const QString &key);
    // A successful probe: the real code un-taints before inserting, so a key tainted while waiting
    // (removed while busy) reports TaintedNotInPool and changes nothing (the §8.1 KeyError).
    Activation activate(const QString &key);
    // The §8.1 fix: forget a waiting node that was removed while busy.
    void dropTaintedWaiting(const QString &key);

    // /instances/remove
    void remove(ProxyRole role, const QStringList &keys);   // idle: delete now (pool + waiting)
    void taint(ProxyRole role, const QStringList &keys);    // busy: isolate, keep in pool
    // Listener tick: when no request is in flight, delete every tainted key of the role.
    QStringList finalizeDrain(ProxyRole role);

    // Request accounting (§5.5).
    int requestCount() const { return m_requestNum; }
    std::optional<Pick> beginRequest(double prefillScore); // nullopt: no prefill server
    std::optional<Pick> pickDecoder(double decodeScore);   // nullopt: no decode server
    void releasePrefill(const QString &key, double score);
    void releaseDecoder(const QString &key, double score);
    void endRequest(); // request_num -= 1
    // Picks without counting a request (recompute re-routing).
    std::optional<Pick> reservePrefill(double prefillScore);

private:
    struct Server {
        BackendAddress address;
        quint64 ordinal = 0;
        double activeTokens = 0;
        double activeKvCache = 0;
        quint64 heapSeq = 0;
    };
    struct HeapEntry {
        double priority;
        quint64 ordinal;
        quint64 seq;
        QString key;
    };
    struct Pool {
        QHash<QString, Server> servers;
        QStringList order;    // insertion order of keys
        std::vector<HeapEntry> heap;
        QStringList tainted;  // a set kept in taint order
    };

    Pool &pool(ProxyRole role) { return role == ProxyRole::Prefill ? m_prefill : m_decode; }
    const Pool &pool(ProxyRole role) const { return role == ProxyRole::Prefill ? m_prefill : m_decode; }
    double priorityOf(ProxyRole role, const Pool &p, const QString &key, const Server &s) const;
    void push(ProxyRole role, const QString &key);
    void rebuild(ProxyRole role);
    void insert(ProxyRole role, const BackendAddress &address);
    void erase(ProxyRole role, const QString &key);
    std::optional<Pick> pick(ProxyRole role, double score);

    Pool m_prefill;
    Pool m_decode;
    QList<WaitingNode> m_waiting;
    quint64 m_nextOrdinal = 0;
    int m_requestNum = 0;
};

} // namespace pd::sim
