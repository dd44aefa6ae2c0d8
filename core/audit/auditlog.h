// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

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
    // The default file: <AppDataLocation>/audit.jsonl.
    static QString defaultPath();
    explicit AuditLog(QString path = defaultPath());

    const QString &path() const { return m_path; }
    // Fills time/user/host when empty, appends one line and fsyncs. False with *error when the line
    // could not be written durably (the caller shows it: an unaudited action is a problem).
    bool append(AuditEntry entry, QString *error = nullptr);

    static QString localUser();

private:
    QString m_path;
};

struct AuditReadResult {
    QList<AuditEntry> entries;
    QStringList problems;  // "audit.jsonl:12: not JSON (...)": lines skipped, never silently
    bool opened = false;
    QString error;         // when the file cannot be read
};

AuditReadResult readAuditLog(const QString &path);

} // namespace pd
