// SPDX-License-Identifier: MIT
#pragma once

// Shared by the engine-control tests: loopback profiles with free ports, the 8-node seed profile, a wait
// for one controller operation, a blocking HTTP status probe, and "is this PID gone" from /proc.
#include "cluster/profile.h"
#include "cluster/profileformat.h"
#include "ops/enginecontroller.h"

#include <QFile>
#include <QHostAddress>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <csignal>
#include <optional>

namespace pdtest {

// Gone: no /proc entry, or a zombie waiting for a reaper that may never come in a container.
inline bool processGone(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 || line.mid(close + 2, 1) == "Z";
}

// Ends a process this test started and its process group, but only if it is still what the test
// started: alive and the leader of its own session (setsid), so a reused or bogus PID is never hit.
inline void killSessionLeader(qint64 pid)
{
    if (pid <= 1 || processGone(pid))
        return;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return;
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    // after ")": state ppid pgrp session
    if (fields.size() > 3 && fields.at(3).toLongLong() == pid)
        ::kill(pid_t(-pid), SIGKILL);
}

// HTTP status of GET path, 0 when nothing answers (refused, timeout).
inline int httpStatus(const QString &host, int port, const QByteArray &path, QByteArray *body = nullptr)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress(host), quint16(port));
    if (!socket.waitForConnected(2000))
        return 0;
    socket.write("GET " + path + " HTTP/1.1\r\nHost: " + host.toLatin1() + "\r\nConnection: close\r\n\r\n");
    QByteArray reply;
    while (socket.waitForReadyRead(3000))
        reply += socket.readAll();
    reply += socket.readAll();
    if (body)
        *body = reply.mid(reply.indexOf("\r\n\r\n") + 4);
    if (!reply.startsWith("HTTP/1.1 "))
        return 0;
    return reply.mid(9, 3).toInt();
}

// `count` consecutive free ports on `host`, somewhere in 20000-29999.
inline int freePortRun(const QString &host, int count)
{
    for (int attempt = 0; attempt < 200; ++attempt) {
        const int base = 20000 + int(QRandomGenerator::global()->bounded(9900));
        bool free = true;
        for (int i = 0; i < count && free; ++i) {
            QTcpServer probe;
            free = probe.listen(QHostAddress(host), quint16(base + i));
        }
        if (free)
            return base;
    }
    return 0;
}

inline pd::Node loopbackNode(const QString &name, const QString &address, pd::Role role, int engines, int dpSize,
    int rankStart, const QString &master, int tp = 1)
{
    pd::Node node;
    node.name = name;
    node.address = address;
    node.role = role;
    node.npuCount = 16;
    pd::EngineGroup group;
    group.dpSize = dpSize;
    group.dpSizeLocal = engines;
    group.dpRankStart = rankStart;
    group.dpAddress = master;
    group.dpPort = 13395;
    group.tpSize = tp;
    group.engineStartPort = freePortRun(address, engines);
    node.engineGroups.append(group);
    return node;
}

// A loopback profile whose proxy is `pdsim proxy` of `generation` behind run_proxy.sh in `runDir` (the
// stand-in for load_balance_proxy_server_example.py; the caller exports PDSIM): one prefill node and one
// decode node with the given engine counts, the proxy at `proxyHost` on a free port.
inline pd::Profile pdsimProxyProfile(const QString &name, const QString &runDir, const QString &proxyHost,
    const QString &prefillHost, int prefillEngines, const QString &decodeHost, int decodeEngines,
    pd::ProxyGeneration generation)
{
    pd::Profile p;
    p.name = name;
    p.runDir = runDir;
    p.nodes = { loopbackNode(QStringLiteral("p1"), prefillHost, pd::Role::Prefill, prefillEngines, prefillEngines, 0,
                    prefillHost),
        loopbackNode(QStringLiteral("d1"), decodeHost, pd::Role::Decode, decodeEngines, decodeEngines, 0, decodeHost) };
    p.proxy.address = proxyHost;
    p.proxy.bindHost = proxyHost;
    p.proxy.port = freePortRun(proxyHost, 1);
    p.proxy.generation = generation;
    p.proxy.scriptPath = QStringLiteral("run_proxy.sh");
    QFile wrapper(runDir + QStringLiteral("/run_proxy.sh"));
    if (wrapper.open(QIODevice::WriteOnly))
        wrapper.write("#!/bin/bash\n# pdsim stands in for load_balance_proxy_server_example.py\nexec \"$PDSIM\" proxy "
                      "--generation "
            + pd::proxyGenerationName(generation).toLatin1() + " \"$@\"\n");
    return p;
}

// The 8-node guide's profile (resources/profiles/deepseek-r1-8node.json); a fatal error when it does not load.
inline pd::Profile seedProfile()
{
    const pd::ProfileLoadResult loaded
        = pd::loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json"));
    if (!loaded.profile)
        qFatal("cannot load the seed profile");
    return *loaded.profile;
}

// The summary of `controller`'s operation `id` once it finished, waited for at most timeoutMs; nothing then.
inline std::optional<pd::OperationSummary> waitForOperation(pd::EngineController &controller, int id, int timeoutMs)
{
    std::optional<pd::OperationSummary> got;
    const auto connection = QObject::connect(
        &controller, &pd::EngineController::operationFinished, &controller, [&got, id](const pd::OperationSummary &s) {
            if (s.id == id)
                got = s;
        });
    static_cast<void>(QTest::qWaitFor([&got] { return got.has_value(); }, timeoutMs)); // the caller checks
    QObject::disconnect(connection);
    return got;
}

} // namespace pdtest
