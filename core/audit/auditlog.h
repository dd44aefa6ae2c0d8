// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <functional>

#include <nlohmann/json.hpp>

// The audit log: one JSON object per line, appended and fsync'ed before append() returns, so a line
// survives the console being killed right after. Every mutating action writes one (local user, what,
// target, parameters, result, duration). Keys: "time" (ISO 8601 UTC, ms), "user", "host", "action",
// "target", "params" (object), "result" ("ok" | "failed" | "cancelled" | "refused" | free text),
// "detail", "duration_ms".
namespace pd {

struct AuditEntry {
    QDateTime time;
    QString user;
    QString host;
    QString action;        // "scale-out.start-engine", "proxy.remove", ...
    QString target;        // "decode 127.0.0.8:9004", "pool decode", ...
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    QString result;
    QString detail;
    qint64 durationMs = 0;
};

nlohmann::ordered_json auditEntryToJson(const AuditEntry &entry);

class AuditLog {
public:
    // The default file, shared by the console and pdctl: <GenericDataLocation>/pdconsole/audit.jsonl
    // (~/.local/share/pdconsole/audit.jsonl).
    static QString defaultPath();
    explicit AuditLog(QString path = defaultPath());

    const QString &path() const { return m_path; }
    // Fills time/user/host when empty, appends one line and fsyncs. False with *error when the line
    // could not be written durably (the caller shows it: an unaudited action is a problem).
    bool append(AuditEntry entry, QString *error = nullptr);
    // append() for a caller with nobody to show the error to: it becomes a warning in the log.
    void appendOrWarn(AuditEntry entry);

    static QString localUser();

    // An append that failed stays on record until the operator acknowledges it: until then mutating
    // actions are refused (an action nobody can account for later is not taken). Empty when none.
    QString unacknowledgedFailure() const { return m_failure; }
    void acknowledge() { m_failure.clear(); }
    // Called (on the appending thread) with the error of each failed append: the GUI shows it at once.
    void setFailureListener(std::function<void(const QString &error)> listener) { m_listener = std::move(listener); }

private:
    bool write(const AuditEntry &entry, QString *error);

    QString m_path;
    QString m_failure;
    std::function<void(const QString &)> m_listener;
};

struct AuditReadResult {
    QList<AuditEntry> entries;
    QStringList problems;  // "audit.jsonl:12: not JSON (...)": lines skipped, never silently
    bool opened = false;
    QString error;         // when the file cannot be read
    qint64 endOffset = 0;  // bytes up to the end of the last complete line read (where to read on from)
    int lines = 0;         // complete lines read (the next line's number is firstLine + lines)
    QByteArray head;       // the file's first bytes (up to 256): a file replaced since reads otherwise
};

// Reads the complete lines from byte `from` on (a line still being written is left for the next read);
// `firstLine` numbers the first of them in problems.
AuditReadResult readAuditLog(const QString &path, qint64 from = 0, int firstLine = 1);

// Where a reader that follows the log has got to.
struct AuditCursor {
    qint64 offset = 0; // bytes read (complete lines)
    int lines = 0; // lines read
    QByteArray head; // the file's first bytes when read from the start (to notice it was replaced)
};

// The complete lines appended since `cursor`, which moves past them. A file replaced or cut short
// since is read anew from its start, and *restarted says so (the reader drops what it held).
AuditReadResult readAuditLogOn(const QString &path, AuditCursor &cursor, bool *restarted = nullptr);

} // namespace pd
