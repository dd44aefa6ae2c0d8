// SPDX-License-Identifier: MIT
#include "simlog/logfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pd::sim {

namespace {

constexpr qsizetype kFlushAt = 64 * 1024;

} // namespace

LogFile::LogFile(QString path, qint64 capBytes, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_cap(std::max<qint64>(4096, capBytes))
{
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(0);
    connect(&m_flushTimer, &QTimer::timeout, this, &LogFile::flush);
}

LogFile::~LogFile()
{
    flush();
    if (m_fd >= 0)
        ::close(m_fd);
}

bool LogFile::reopen(bool truncate)
{
    if (m_fd >= 0)
        ::close(m_fd);
    const QByteArray native = QFile::encodeName(m_path);
    m_fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND), 0644);
    if (m_fd < 0)
        return false;
    struct stat st = {};
    m_written = ::fstat(m_fd, &st) == 0 ? qint64(st.st_size) : 0;
    return true;
}

bool LogFile::open(QString *error)
{
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("cannot create the log directory %1").arg(dir);
        return false;
    }
    if (!reopen(false)) {
        if (error)
            *error = QStringLiteral("cannot open the log file %1: %2")
                         .arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    return true;
}

void LogFile::rotate()
{
    flush();
    rotateFile();
}

void LogFile::rotateFile()
{
    if (m_fd < 0 || m_written == 0)
        return;
    // Only a plain file is renamed: `--log /dev/stdout` (a launcher's redirection) or a FIFO is
    // written to as it is, never moved.
    const QByteArray native = QFile::encodeName(m_path);
    struct stat st = {};
    if (::lstat(native.constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return;
    const QByteArray to = QFile::encodeName(m_path + QStringLiteral(".1"));
    if (::rename(native.constData(), to.constData()) == 0)
        ++m_rotations;
    // Renamed or not, the new process starts an empty file (the launcher's `>` redirection).
    reopen(true);
}

void LogFile::append(QByteArrayView line)
{
    if (m_fd < 0) {
        m_dropped += line.size() + 1;
        return;
    }
    m_buffer.append(line.data(), line.size());
    m_buffer.append('\n');
    if (m_buffer.size() >= kFlushAt)
        flush();
    else if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void LogFile::flush()
{
    m_flushTimer.stop();
    if (m_buffer.isEmpty())
        return;
    if (m_written + m_buffer.size() > m_cap)
        rotateFile();
    writeOut(m_buffer.constData(), m_buffer.size());
    m_buffer.clear();
}

void LogFile::writeOut(const char *data, qint64 size)
{
    if (m_fd < 0) {
        m_dropped += size;
        return;
    }
    while (size > 0) {
        const ssize_t n = ::write(m_fd, data, size_t(size));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_dropped += size;
            return;
        }
        data += n;
        size -= n;
        m_written += n;
    }
}

} // namespace pd::sim
