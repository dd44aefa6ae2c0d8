// SPDX-License-Identifier: MIT
#include "audit/auditlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSysInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pd {

QString AuditLog::defaultPath()
{
    // One file for the console and pdctl, whatever the application's name: what one did, the other shows.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/pdconsole/audit.jsonl");
}

AuditLog::AuditLog(QString path)
    : m_path(std::move(path))
{
}

QString AuditLog::localUser()
{
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME");
    if (user.isEmpty())
        user = QStringLiteral("uid %1").arg(getuid());
    return user;
}

nlohmann::ordered_json auditEntryToJson(const AuditEntry &e)
{
    return nlohmann::ordered_json{{"time", e.time.toUTC().toString(Qt::ISODateWithMs).toStdString()},
                                  {"user", e.user.toStdString()},
                                  {"host", e.host.toStdString()},
                                  {"action", e.action.toStdString()},
                                  {"target", e.target.toStdString()},
                                  {"params", e.params},
                                  {"result", e.result.toStdString()},
                                  {"detail", e.detail.toStdString()},
                                  {"duration_ms", e.durationMs}};
}

bool AuditLog::append(AuditEntry entry, QString *error)
{
    QString problem;
    if (write(entry, &problem))
        return true;
    if (m_failure.isEmpty())
        m_failure = problem;
    if (m_listener)
        m_listener(problem);
    if (error)
        *error = problem;
    return false;
}

void AuditLog::appendOrWarn(AuditEntry entry)
{
    QString error;
    if (!append(std::move(entry), &error))
        qWarning("%s", qPrintable(error));
}

bool AuditLog::write(const AuditEntry &given, QString *error)
{
    AuditEntry entry = given;
    if (!entry.time.isValid())
        entry.time = QDateTime::currentDateTimeUtc();
    if (entry.user.isEmpty())
        entry.user = localUser();
    if (entry.host.isEmpty())
        entry.host = QSysInfo::machineHostName();
    std::string line = auditEntryToJson(entry).dump() + '\n';
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    const QByteArray native = QFile::encodeName(m_path);
    const int fd = ::open(native.constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    auto fail = [&](const char *what) {
        if (error)
            *error = QStringLiteral("audit log %1: %2: %3").arg(m_path, QLatin1String(what), QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    };
    if (fd < 0)
        return fail("open");
    // A line torn by a crash mid-write has no newline: this entry starts on a line of its own instead of
    // being glued to it (and read as part of the same broken line).
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size > 0) {
        char last = '\n';
        if (::pread(fd, &last, 1, size - 1) == 1 && last != '\n')
            line.insert(line.begin(), '\n');
    }
    // One write() of the whole line: O_APPEND makes concurrent writers' lines not interleave.
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ::close(fd);
            return fail("write");
        }
        done += size_t(n);
    }
    if (::fsync(fd) != 0) {
        ::close(fd);
        return fail("fsync");
    }
    if (::close(fd) != 0)
        return fail("close");
    return true;
}

AuditReadResult readAuditLogOn(const QString &path, AuditCursor &cursor, bool *restarted)
{
    AuditReadResult read = readAuditLog(path, cursor.offset, cursor.lines + 1);
    const bool sameFile = read.opened && read.error.isEmpty() && cursor.offset > 0 && !cursor.head.isEmpty()
                          && read.head.left(cursor.head.size()) == cursor.head;
    const bool again = cursor.offset > 0 && !sameFile;
    if (again) {
        cursor = AuditCursor();
        read = readAuditLog(path);
    }
    if (restarted)
        *restarted = again;
    if (!read.opened)
        return read;
    if (cursor.offset == 0)
        cursor.head = read.head;
    cursor.offset = read.endOffset;
    cursor.lines += read.lines;
    return read;
}

AuditReadResult readAuditLog(const QString &path, qint64 from, int firstLine)
{
    AuditReadResult out;
    out.endOffset = from;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return out;
    }
    out.opened = true;
    out.head = file.read(256);
    if (from > file.size() || !file.seek(from)) {
        out.error = QStringLiteral("%1: shorter than the %2 bytes read before").arg(path).arg(from);
        return out;
    }
    const QString name = QFileInfo(path).fileName();
    int lineNo = firstLine - 1;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.endsWith('\n')) {
            if (!line.trimmed().isEmpty())
                out.problems << QStringLiteral("%1:%2: incomplete last line (the writer stopped mid-line)").arg(name).arg(lineNo + 1);
            break; // left for the next read: it may be a line being written
        }
        ++lineNo;
        ++out.lines;
        out.endOffset += line.size();
        if (line.trimmed().isEmpty())
            continue;
        const auto j = nlohmann::ordered_json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
        if (!j.is_object() || !j.contains("action") || !j["action"].is_string() || !j.contains("time") || !j["time"].is_string()) {
            out.problems << QStringLiteral("%1:%2: not an audit entry").arg(name).arg(lineNo);
            continue;
        }
        auto str = [&j](const char *k) {
            const auto it = j.find(k);
            return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
        };
        AuditEntry e;
        e.time = QDateTime::fromString(str("time"), Qt::ISODateWithMs);
        e.user = str("user");
        e.host = str("host");
        e.action = str("action");
        e.target = str("target");
        if (const auto it = j.find("params"); it != j.end() && it->is_object())
            e.params = *it;
        e.result = str("result");
        e.detail = str("detail");
        if (const auto it = j.find("duration_ms"); it != j.end() && it->is_number_integer())
            e.durationMs = it->get<qint64>();
        out.entries.append(e);
    }
    return out;
}

} // namespace pd
