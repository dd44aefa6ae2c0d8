// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "logs/diagnosisevent.h"
#include "logs/logmatcher.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <chrono>

// Every engine's log watched in the background, not only the one open in the Logs tab: per node, one
// command per interval reads the new bytes of all its engines' logs (at most `maxBytesPerLog` each,
// never the whole file; a log that shrank is read again from its start), and the lines go through the
// signature matcher. A known signature becomes a DiagnosisEvent (one per engine and signature per fold
// window). A node's next read is armed only after its answer (reads never stack); a failing node is
// asked again after a back-off. GUI thread; the blocking runs happen on the watch's worker threads.
namespace pd {

struct WatchedLog {
    int engine = -1;   // the tracker's engine index
    QString engineId;  // "host:port"
    CommandTarget target;
    QString path;
};

struct ClusterLogWatchOptions {
    std::chrono::milliseconds interval = std::chrono::seconds(5);
    std::chrono::milliseconds commandTimeout = std::chrono::seconds(10);
    qint64 maxBytesPerLog = 16 * 1024;  // per log per read: a flood is caught up read after read
    qint64 firstReadBytes = 16 * 1024;  // the end of a log read the first time (what happened just before)
    int parallelNodes = 4;
    std::chrono::seconds foldWindow = std::chrono::seconds(60);
};

// One log's new bytes in a node's answer.
struct LogChunk {
    int index = -1;     // the log's place in the command
    bool missing = false;
    qint64 size = 0;    // the file's size when read
    qint64 start = 0;   // offset of `bytes` in the file
    bool truncated = false; // the file was smaller than the offset: read from 0
    QByteArray bytes;
};

class ClusterLogWatch final : public QObject {
    Q_OBJECT
public:
    ClusterLogWatch(CommandRunner *runner, ClusterLogWatchOptions options = {}, QObject *parent = nullptr);
    ~ClusterLogWatch() override; // drops queued reads, waits for running ones (bounded by commandTimeout)

    void setLogs(const QList<WatchedLog> &logs); // starts over (offsets forgotten)
    void setLogPath(int engine, const QString &path); // an adopted engine's own log
    void start();
    void stop();
    bool isRunning() const { return m_running; }
    void readAllNow(); // one read of every idle node now

    int nodeCount() const { return int(m_nodes.size()); }
    qint64 bytesRead() const { return m_bytesRead; }
    int reads() const { return m_reads; }
    // CPU time this thread spent applying answers (parsing, matching): what the watch costs the GUI thread.
    double applyCpuMs() const { return m_applyCpuMs; }

    // The shell command that reads these logs after these offsets (-1: not read yet). Exposed for tests.
    static QByteArray readCommand(const QList<QPair<QString, qint64>> &logs, qint64 maxBytes, qint64 firstReadBytes);
    // Splits a node's answer; false when it is not framed as readCommand() frames it.
    static bool parseAnswer(const QByteArray &out, QList<LogChunk> *chunks);

Q_SIGNALS:
    void diagnosed(int engine, const pd::DiagnosisEvent &event);
    void nodeFailed(const QString &node, const QString &error);
    void nodeRead(const QString &node); // one answer applied (tests and benchmarks wait for it)

private:
    struct Log {
        WatchedLog watched;
        qint64 offset = -1;
        QByteArray partial; // a last line without its '\n' yet (bounded)
        qint64 partialOffset = 0;
        QHash<int, QDateTime> lastEvent; // signature -> when it was last said
    };
    struct Node {
        QString key;
        CommandTarget target;
        QList<int> logs; // indices into m_logs
        bool inFlight = false;
        QTimer *timer = nullptr;
    };
    void read(int node);
    void applied(int node, int generation, const CommandResult &result);
    void consume(Log &log, const LogChunk &chunk);

    CommandRunner *m_runner;
    ClusterLogWatchOptions m_options;
    LogMatcher m_matcher;
    QThreadPool m_pool;
    QList<Log> m_logs;
    QList<Node> m_nodes;
    bool m_running = false;
    int m_generation = 0;
    qint64 m_bytesRead = 0;
    int m_reads = 0;
    double m_applyCpuMs = 0;
};

} // namespace pd
