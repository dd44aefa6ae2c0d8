// SPDX-License-Identifier: MIT
#pragma once

#include "audit/auditlog.h"
#include "state/enginestate.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <optional>

// The operator's intents written to the shared audit log by any process (pdctl scale in a terminal,
// another console, this one): "intent.stop", "intent.drain", "intent.none" lines, each naming one
// engine ("decode 127.0.0.8:9004"). A console that did not run the operation itself still reads the
// stopped engines as stopped on purpose, not as a crash.
//
// Reads the file's new complete lines every interval (the file only grows; a file replaced or cut
// short is read again from its start). At start it reads the last 256 KB, so the intents of a recent
// scale-in are known at once. Threads: the thread it lives on (small reads, one per interval).
namespace pd {

struct AuditIntent {
    QString engineId; // "127.0.0.8:9004"
    OperatorIntent intent = OperatorIntent::None;
    QString detail; // what it came from: "scale-in", "rolling restart"
    QString who; // "user@host" of the line
    std::int64_t atMs = 0;
};

// The intent of one audit line, if it is an intent line.
std::optional<AuditIntent> auditIntentOf(const AuditEntry &entry);

class AuditIntentFeed final : public QObject {
    Q_OBJECT
public:
    explicit AuditIntentFeed(QString path, QObject *parent = nullptr);

    void start(int intervalMs = 2000);
    void stop();
    // Reads what was appended since the last read now (the timer calls it).
    void poll();

Q_SIGNALS:
    void intentRead(const pd::AuditIntent &intent);

private:
    QString m_path;
    QTimer m_timer;
    AuditCursor m_cursor;
    bool m_positioned = false; // the first read starts near the end
};

} // namespace pd
Q_DECLARE_METATYPE(pd::AuditIntent)
