// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "logs/diagnosisevent.h"
#include "logs/logtailmodel.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <chrono>
#include <memory>

// Follows a log file on a node through the CommandRunner: each poll asks for the file size and the
// bytes after the last offset (`tail -c +N | head -c MAX`), re-arming a single-shot timer only after
// the previous answer (requests never stack). A file that shrank (rotated, truncated) is read again from
// its start. Lines land in a bounded LogTailModel; a known signature becomes a DiagnosisEvent.
// GUI thread; the blocking run() happens on the tail's own worker thread. Pause stops polling; resume
// continues from the offset, so nothing written meanwhile is lost.
namespace pd {

struct LogTailOptions {
    std::chrono::milliseconds pollInterval = std::chrono::milliseconds(1000);
    std::chrono::milliseconds commandTimeout = std::chrono::seconds(15);
    qint64 backlogBytes = 256 * 1024; // on start, read this much of the end of the file (-1: whole file)
    qint64 maxChunkBytes = 4 * 1024 * 1024; // per poll; a bigger backlog is caught up poll after poll
    int maxLines = 20000;
    std::chrono::seconds foldWindow = std::chrono::seconds(60); // same signature within: one event, counted
};

class LogTail final : public QObject {
    Q_OBJECT
public:
    LogTail(CommandRunner *runner, const CommandTarget &target, const QString &path, const LogTailOptions &options = {},
        QObject *parent = nullptr);
    ~LogTail() override; // waits for a running poll (bounded by commandTimeout)

    void setEngine(const QString &engine) { m_engine = engine; }
    LogTailModel *model() { return &m_model; }
    const QString &path() const { return m_path; }
    qint64 offset() const { return m_offset; }
    bool isPaused() const { return m_paused; }
    bool isRunning() const { return m_started && !m_paused; }
    bool isPolling() const { return m_inFlight; } // a poll is on its way (its answer still lands after pause())
    QString lastError() const { return m_lastError; }

    void start();
    void pause();
    void resume();
    void pollNow(); // one poll now (when none is in flight)

    // The command one poll runs (exposed for tests of the quoting).
    static QByteArray pollCommand(const QString &path, qint64 offset, qint64 backlog, qint64 maxChunk);

Q_SIGNALS:
    void polled(qint64 offset, qint64 fileSize);
    void failed(const QString &message); // transport or file problem; polling continues
    void truncated(qint64 newSize); // the file shrank: reading again from its start
    void diagnosed(const pd::DiagnosisEvent &event);

private:
    void schedule(std::chrono::milliseconds delay);
    void onResult(int generation, const CommandResult &result);
    void consume(qint64 start, const QByteArray &data);

    CommandRunner *m_runner;
    CommandTarget m_target;
    QString m_path;
    QString m_engine;
    LogTailOptions m_options;
    LogTailModel m_model;
    LogMatcher m_matcher;
    QThreadPool m_pool;
    QTimer m_timer;
    qint64 m_offset = -1; // -1: not read yet (start from the backlog)
    QByteArray m_partial; // a last line without its '\n' yet
    qint64 m_partialOffset = 0;
    bool m_skipFirstPartialLine = false;
    bool m_started = false;
    bool m_paused = false;
    bool m_inFlight = false;
    int m_generation = 0;
    QString m_lastError;
    QHash<int, QDateTime> m_lastEvent; // signature -> when it was last emitted
};

} // namespace pd
