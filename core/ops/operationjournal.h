// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaletypes.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// What the operations under way are doing, on disk before they do it, so that an operation cut short
// (kill -9, a crash, a closed laptop) is found by the next console or pdctl instead of forgotten.
// One JSON file per proxy endpoint (default ~/.local/share/pdconsole/operations/<proxy>.json, shared by
// the console and pdctl), one entry per operation under way: written when it starts, again before each
// step begins and after it ends, and dropped when the operation ends (however it ends: its summary then
// says what it left). Every write is read-modify-write under a lock file, so two processes keep each
// other's entries, and atomic (QSaveFile). An entry whose process is gone is an interrupted operation
// (interruptedoperations.h says what it left and repairs it).
//
// {"format": "pdconsole-operations", "version": 1, "proxy": "http://127.0.0.1:8000",
//  "operations": [{"id": "uuid", "kind": "group-scale-in", "role": "decode", "unit": "d1",
//                  "engines": ["h:p", ...], "stops_engines": true, "started": ISO, "updated": ISO,
//                  "step": "stop-ranks", "step_label": "Stop every rank", "step_status": "running",
//                  "reached": ["preflight", "remove", ...],
//                  "owner": {"host": "ws1", "pid": 4242, "program": "pdctl", "start_ticks": 123456}}]}
namespace pd {

// The process that runs an operation. startTicks (Linux: /proc/PID/stat field 22) tells a reused pid apart.
struct OperationOwner {
    QString host;
    qint64 pid = 0;
    QString program; // "pdctl", "pdconsole"
    qint64 startTicks = 0;

    static OperationOwner self();
    // False when the process is gone (or its pid now belongs to another process). An owner on another
    // host (a home directory shared over NFS) cannot be checked: alive.
    bool isAlive() const;
    QString describe() const; // "pdctl (pid 4242 on ws1)"
};

struct OperationRecord {
    QString id;
    QString kind; // ScaleOperation::kind(): "scale-in", "group-restart", ...
    Role role = Role::Decode;
    QString unit; // the engine, or the DP group's id for a group operation
    QStringList engines; // every engine it acts on
    bool stopsEngines = true; // false: a scale-in that leaves the engine running (Restore)
    QDateTime started;
    QDateTime updated;
    QString step; // the id of the step last begun, ended or skipped
    QString stepLabel; // its English label
    QString stepStatus; // stepStatusName()
    QStringList reached; // every step begun so far (skipped ones not)
    OperationOwner owner;

    bool hasReached(const QString &stepId) const { return reached.contains(stepId); }
};

class OperationJournal {
public:
    // The file for the proxy at `proxyBase` under `directory` (default ~/.local/share/pdconsole/operations).
    static QString pathFor(const QString &proxyBase, const QString &directory = {});

    OperationJournal(QString path, QString proxyBase);

    const QString &path() const { return m_path; }
    QString lastError() const { return m_error; }

    // Adds or replaces `record` (by id); false with lastError() when it could not be written.
    bool put(const OperationRecord &record);
    // Drops the entry (the operation ended, or the operator forgot it).
    bool drop(const QString &id);

    // Every entry: none without a file; nullopt when the file cannot be used (*error names file:line or field).
    std::optional<QList<OperationRecord>> load(QString *error) const;
    // The entries whose process is gone.
    std::optional<QList<OperationRecord>> interrupted(QString *error) const;

    static QByteArray serialize(const QList<OperationRecord> &records, const QString &proxyBase);
    static std::optional<QList<OperationRecord>> parse(const QByteArray &bytes, const QString &where, QString *error);

private:
    bool rewrite(const std::function<void(QList<OperationRecord> &)> &change);

    QString m_path;
    QString m_proxyBase;
    QString m_error;
};

} // namespace pd
