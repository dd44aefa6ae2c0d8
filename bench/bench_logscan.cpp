// SPDX-License-Identifier: MIT
// How fast the log matcher reads engine logs: MB/s of LogMatcher::scan() over a large synthetic vLLM log
// (INFO lines with the usual shapes, a traceback now and then, and the 25 signatures sprinkled in), next
// to a memchr pass (the floor for anything that splits lines) and a naive per-line QRegularExpression
// loop over all 25 patterns (what the matcher avoids).
// Figures are MB per second of thread CPU time.
// Usage: bench_logscan [MiB=64] [error-lines-per-10k=20]
#include "logs/logmatcher.h"

#include <QCoreApplication>
#include <QRandomGenerator>

#include <cstdio>
#include <cstring>
#include <ctime>

using namespace pd;

namespace {

const char *const kInfo[] = {
    "INFO 06-12 10:11:12 [loggers.py:116] Engine 000: Avg prompt throughput: 1520.3 tokens/s, Avg generation "
    "throughput: 310.4 tokens/s, Running: 28 reqs, Waiting: 3 reqs, GPU KV cache usage: 71.2%, Prefix cache hit rate: "
    "12.5%",
    "INFO:     192.0.0.9:51234 - \"POST /v1/completions HTTP/1.1\" 200 OK",
    "INFO 06-12 10:11:12 [metrics.py:455] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 912.7 "
    "tokens/s, Running: 27 reqs, Swapped: 0 reqs, Pending: 0 reqs",
    "DEBUG 06-12 10:11:12 [mooncake_connector.py:512] send kv cache for request cmpl-3f9a1c2d-0 to 192.0.0.5:20001 "
    "done in 3.1 ms",
    "[INFO] HCCL(3311,python):2025-06-12-10:11:12.123.456 [hccl_communicator.cc:210] entry-HcclAllReduce: "
    "tag[AllReduce_192.0.0.5%enp61s0f0_60000_0_1749700000], count[4096], dataType[bf16]",
    "WARNING 06-12 10:11:12 [scheduler.py:1180] Sequence group cmpl-1 is preempted by PreemptionMode.RECOMPUTE mode",
};

const char *const kSignatureLines[] = {
    "RuntimeError: NPU out of memory. Tried to allocate 898.00 MiB (NPU 0; 60.96 GiB total capacity)",
    "[ERROR] HCCL(3311): wait socket establish timeout, role[0] rank[3] timeout[120]",
    "zmq.error.ZMQError: Address already in use (addr='tcp://0.0.0.0:20001')",
    "EI0013: error CQE occurred, qpn[10] status[12]",
    "ERROR 06-12 10:02:10 [core.py:515] EngineCore failed to start.",
    "Traceback (most recent call last):",
};

QByteArray makeLog(qint64 bytes, int errorsPer10k)
{
    QByteArray log;
    log.reserve(bytes + 4096);
    QRandomGenerator rng(42);
    while (log.size() < bytes) {
        if (int(rng.bounded(10000)) < errorsPer10k)
            log += kSignatureLines[rng.bounded(int(std::size(kSignatureLines)))];
        else
            log += kInfo[rng.bounded(int(std::size(kInfo)))];
        log += '\n';
    }
    return log;
}

// Thread CPU time: on a shared, loaded machine wall time mostly measures the neighbours.
qint64 cpuNs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

double mbps(qint64 bytes, qint64 ns)
{
    return ns > 0 ? double(bytes) / (1024.0 * 1024.0) / (double(ns) / 1e9) : 0.0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 mib = argc > 1 ? QByteArray(argv[1]).toLongLong() : 64;
    const int errorsPer10k = argc > 2 ? QByteArray(argv[2]).toInt() : 20;
    const QByteArray log = makeLog(mib * 1024 * 1024, errorsPer10k);
    const LogMatcher matcher;
    std::printf("log: %.1f MiB, %lld lines, %d error lines per 10k\n", log.size() / 1048576.0,
        qlonglong(log.count('\n')), errorsPer10k);

    // Floor: find every newline.
    {
        const qint64 t0 = cpuNs();
        qint64 lines = 0;
        const char *p = log.constData();
        const char *end = p + log.size();
        while (p < end) {
            const void *nl = std::memchr(p, '\n', size_t(end - p));
            if (!nl)
                break;
            ++lines;
            p = static_cast<const char *>(nl) + 1;
        }
        std::printf(
            "memchr line split        %8.0f MB/s  (%lld lines)\n", mbps(log.size(), (cpuNs() - t0)), qlonglong(lines));
    }
    // The matcher, best of 3.
    qint64 best = -1;
    qint64 hits = 0;
    qint64 diagnosed = 0;
    for (int round = 0; round < 3; ++round) {
        hits = 0;
        diagnosed = 0;
        const qint64 t0 = cpuNs();
        matcher.scan(log, [&](qint64, qsizetype, qsizetype, const LogLineClass &c) {
            ++hits;
            diagnosed += c.signatureId > 0 ? 1 : 0;
        });
        const qint64 ns = (cpuNs() - t0);
        best = best < 0 ? ns : qMin(best, ns);
    }
    std::printf("LogMatcher::scan         %8.0f MB/s  (%lld error lines, %lld diagnosed)\n", mbps(log.size(), best),
        qlonglong(hits), qlonglong(diagnosed));
    // Naive: every pattern on every line (on a slice; it is slow).
    {
        const qint64 slice = qMin<qint64>(log.size(), 4 * 1024 * 1024);
        QList<QRegularExpression> res;
        for (const LogSignature &s : logSignatures()) {
            res.append(QRegularExpression(s.pattern));
            res.last().optimize();
        }
        const qint64 t0 = cpuNs();
        qint64 found = 0;
        const QList<QByteArray> lines = log.left(slice).split('\n');
        for (const QByteArray &l : lines) {
            const QString s = QString::fromUtf8(l);
            for (const QRegularExpression &re : res) {
                if (re.match(s).hasMatch()) {
                    ++found;
                    break;
                }
            }
        }
        std::printf("naive 25 regex per line  %8.1f MB/s  (%lld diagnosed in the first %.0f MiB)\n",
            mbps(slice, (cpuNs() - t0)), qlonglong(found), slice / 1048576.0);
    }
    return 0;
}
