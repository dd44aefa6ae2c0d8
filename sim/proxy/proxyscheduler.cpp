// SPDX-License-Identifier: MIT
#include "proxyscheduler.h"

#include <algorithm>
#include <tuple>

namespace pd::sim {

QString roleName(ProxyRole role)
{
    return role == ProxyRole::Prefill ? QStringLiteral("prefill") : QStringLiteral("decode");
}

double ProxyScheduler::prefillScore(qsizetype requestLength)
{
    return (double(requestLength) / 4.0) * 0.0345 + 120.0745;
}

double ProxyScheduler::decodeScore(qsizetype requestLength)
{
    return double(requestLength);
}

namespace {
// std heap functions build a max-heap; "greater" turns it into the min-heap of Python's heapq.
template<typename E>
bool heapAfter(const E &a, const E &b)
{
    return std::tie(a.priority, a.ordinal, a.seq, a.key) > std::tie(b.priority, b.ordinal, b.seq, b.key);
}
} // namespace

double ProxyScheduler::priorityOf(ProxyRole role, const Pool &p, const QString &key, const Server &s) const
{
    if (p.tainted.contains(key))
        return kTaintedPriority;
    if (role == ProxyRole::Prefill)
        return s.activeTokens + 0.3 * s.activeKvCache;
    return s.activeTokens;
}

void ProxyScheduler::push(ProxyRole role, const QString &key)
{
    Pool &p = pool(role);
    const Server &s = p.servers[key];
    p.heap.push_back({priorityOf(role, p, key, s), s.ordinal, s.heapSeq, key});
    std::push_heap(p.heap.begin(), p.heap.end(), heapAfter<HeapEntry>);
    if (p.heap.size() > 2 * size_t(p.servers.size())) {
        p.heap.clear();
        for (const QString &k : std::as_const(p.order)) {
            const Server &server = p.servers[k];
            p.heap.push_back({priorityOf(role, p, k, server), server.ordinal, server.heapSeq, k});
        }
        std::make_heap(p.heap.begin(), p.heap.end(), heapAfter<HeapEntry>);
    }
}

void ProxyScheduler::rebuild(ProxyRole role)
{
    Pool &p = pool(role);
    p.heap.clear();
    for (const QString &k : std::as_const(p.order)) {
        Server &server = p.servers[k];
        ++server.heapSeq;
        p.heap.push_back({priorityOf(role, p, k, server), server.ordinal, server.heapSeq, k});
    }
    std::make_heap(p.heap.begin(), p.heap.end(), heapAfter<HeapEntry>);
}

void ProxyScheduler::insert(ProxyRole role, const BackendAddress &address)
{
    Pool &p = pool(role);
    const QString key = instanceKey(address);
    Server server;
    server.address = address;
    server.ordinal = m_nextOrdinal++;
    p.servers.insert(key, server);
    p.order.append(key);
    push(role, key);
}

void ProxyScheduler::erase(ProxyRole role, const QString &key)
{
    Pool &p = pool(role);
    p.servers.remove(key);
    p.order.removeAll(key);
    p.tainted.removeAll(key);
}

void ProxyScheduler::addServer(ProxyRole role, const BackendAddress &address)
{
    if (!contains(role, instanceKey(address)))
        insert(role, address);
}

QStringList ProxyScheduler::instances(ProxyRole role) const
{
    QStringList out;
    const Pool &p = pool(role);
    for (const QString &key : p.order)
        out << p.servers.value(key).address.displayName();
    return out;
}

QList<BackendAddress> ProxyScheduler::addresses(ProxyRole role) const
{
    QList<BackendAddress> out;
    const Pool &p = pool(role);
    for (const QString &key : p.order)
        out << p.servers.value(key).address;
    return out;
}

int ProxyScheduler::instanceCount(ProxyRole role) const
{
    return int(pool(role).servers.size());
}

bool ProxyScheduler::contains(ProxyRole role, const QString &key) const
{
    return pool(role).servers.contains(key);
}

bool ProxyScheduler::isTainted(ProxyRole role, const QString &key) const
{
    return pool(role).tainted.contains(key);
}

QStringList ProxyScheduler::tainted(ProxyRole role) const
{
    return pool(role).tainted;
}

double ProxyScheduler::priority(ProxyRole role, const QString &key) const
{
    const Pool &p = pool(role);
    const auto it = p.servers.constFind(key);
    return it == p.servers.cend() ? -1.0 : priorityOf(role, p, key, *it);
}

int ProxyScheduler::heapSize(ProxyRole role) const
{
    return int(pool(role).heap.size());
}

bool ProxyScheduler::isWaiting(const QString &key) const
{
    return std::any_of(m_waiting.cbegin(), m_waiting.cend(),
                       [&](const WaitingNode &n) { return n.key == key; });
}

void ProxyScheduler::addWaiting(ProxyRole role, const BackendAddress &address)
{
    m_waiting.append({instanceKey(address), role, address, 0});
}

QList<ProxyScheduler::WaitingNode> ProxyScheduler::waitingNodes() const
{
    return m_waiting;
}

int ProxyScheduler::recordFailedProbe(const QString &key)
{
    for (WaitingNode &node : m_waiting) {
        if (node.key == key)
            return ++node.probes;
    }
    return 0;
}

void ProxyScheduler::removeWaiting(const QString &key)
{
    m_waiting.removeIf([&](const WaitingNode &n) { return n.key == key; });
}

ProxyScheduler::Activation ProxyScheduler::activate(const QString &key)
{
    const auto it = std::find_if(m_waiting.cbegin(), m_waiting.cend(),
                                 [&](const WaitingNode &n) { return n.key == key; });
    if (it == m_waiting.cend())
        return Activation::NotWaiting;
    const WaitingNode node = *it;
    Pool &p = pool(node.role);
    if (p.tainted.contains(key) && !p.servers.contains(key))
        return Activation::TaintedNotInPool;
    removeWaiting(key);
    if (!p.servers.contains(key))
        insert(node.role, node.address);
    return Activation::Activated;
}

void ProxyScheduler::dropTaintedWaiting(const QString &key)
{
    const auto it = std::find_if(m_waiting.cbegin(), m_waiting.cend(),
                                 [&](const WaitingNode &n) { return n.key == key; });
    if (it == m_waiting.cend())
        return;
    pool(it->role).tainted.removeAll(key);
    removeWaiting(key);
}

void ProxyScheduler::remove(ProxyRole role, const QStringList &keys)
{
    for (const QString &key : keys) {
        erase(role, key);
        removeWaiting(key);
    }
    rebuild(role);
}

void ProxyScheduler::taint(ProxyRole role, const QStringList &keys)
{
    Pool &p = pool(role);
    for (const QString &key : keys) {
        if (!p.tainted.contains(key))
            p.tainted.append(key);
    }
    rebuild(role);
}

QStringList ProxyScheduler::finalizeDrain(ProxyRole role)
{
    Pool &p = pool(role);
    if (m_requestNum != 0 || p.tainted.isEmpty())
        return {};
    const QStringList keys = p.tainted;
    for (const QString &key : keys)
        erase(role, key);
    p.tainted.clear();
    rebuild(role);
    return keys;
}

std::optional<ProxyScheduler::Pick> ProxyScheduler::pick(ProxyRole role, double score)
{
    Pool &p = pool(role);
    while (!p.heap.empty()) {
        std::pop_heap(p.heap.begin(), p.heap.end(), heapAfter<HeapEntry>);
        const HeapEntry entry = p.heap.back();
        p.heap.pop_back();
        const auto it = p.servers.find(entry.key);
        if (it == p.servers.end() || it->heapSeq != entry.seq)
            continue; // stale
        if (role == ProxyRole::Prefill)
            it->activeKvCache += score;
        else
            it->activeTokens += score;
        ++it->heapSeq;
        const Pick result{entry.key, it->address};
        push(role, entry.key);
        return result;
    }
    return std::nullopt;
}

std::optional<ProxyScheduler::Pick> ProxyScheduler::beginRequest(double prefillScore)
{
    auto result = pick(ProxyRole::Prefill, prefillScore);
    if (result)
        ++m_requestNum;
    return result;
}

std::optional<ProxyScheduler::Pick> ProxyScheduler::reservePrefill(double prefillScore)
{
    return pick(ProxyRole::Prefill, prefillScore);
}

std::optional<ProxyScheduler::Pick> ProxyScheduler::pickDecoder(double decodeScore)
{
    return pick(ProxyRole::Decode, decodeScore);
}

void ProxyScheduler::releasePrefill(const QString &key, double score)
{
    Pool &p = pool(ProxyRole::Prefill);
    const auto it = p.servers.find(key);
    if (it == p.servers.end())
        return;
    it->activeKvCache = std::max(0.0, it->activeKvCache - score);
    ++it->heapSeq;
    push(ProxyRole::Prefill, key);
}

void ProxyScheduler::releaseDecoder(const QString &key, double score)
{
    Pool &p = pool(ProxyRole::Decode);
    const auto it = p.servers.find(key);
    if (it == p.servers.end())
        return;
    it->activeTokens = std::max(0.0, it->activeTokens - score);
    ++it->heapSeq;
    push(ProxyRole::Decode, key);
}

void ProxyScheduler::endRequest()
{
    m_requestNum = std::max(0, m_requestNum - 1);
}

} // namespace pd::sim
