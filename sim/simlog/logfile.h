// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

// One simulated process's log file, written the way a redirected stdout is: lines appended to a
// buffer and written out at the end of the event-loop pass that produced them (or at once when the
// buffer passes 64 KiB, or on flush()), so a burst costs one write() and the thread never waits on
// more than the page cache. Bounded: when the file would pass its cap it is renamed to `<path>.1`
// (replacing an older one, as the console's launcher keeps the previous run's log) and a new file
// begins. A write that fails (disk full, directory gone) drops the lines and counts them; the
// simulation never stops for its log. Idle, it has no timer armed and costs nothing. A path that is not
// a plain file (`/dev/stdout`, a FIFO) is written to but never rotated.
// Thread contract: one thread (the owner's).
namespace pd::sim {

class LogFile final : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kDefaultCap = 64LL * 1024 * 1024;

    explicit LogFile(QString path, qint64 capBytes = kDefaultCap, QObject *parent = nullptr);
    ~LogFile() override; // flushes

    // Creates the directory and opens the file for appending. False with *error naming the path.
    bool open(QString *error);
    // Moves a non-empty file to `<path>.1` and starts an empty one (a new process's log).
    void rotate();
    void append(QByteArrayView line); // one line, without its '\n'
    void flush();

    const QString &path() const { return m_path; }
    qint64 size() const { return m_written + m_buffer.size(); }
    qint64 droppedBytes() const { return m_dropped; }
    int rotations() const { return m_rotations; }

private:
    void writeOut(const char *data, qint64 size);
    bool reopen(bool truncate);
    void rotateFile();

    QString m_path;
    qint64 m_cap;
    int m_fd = -1;
    qint64 m_written = 0; // bytes in the current file
    qint64 m_dropped = 0;
    int m_rotations = 0;
    QByteArray m_buffer;
    QTimer m_flushTimer;
};

} // namespace pd::sim
