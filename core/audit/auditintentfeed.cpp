// SPDX-License-Identifier: MIT
#include "audit/auditintentfeed.h"

#include "audit/auditlog.h"

#include <QFile>
#include <QFileInfo>

namespace pd {

namespace {

constexpr qint64 kFirstReadBytes = 256 * 1024;

} // namespace

std::optional<AuditIntent> auditIntentOf(const AuditEntry &entry)
{
    static const QString prefix = QStringLiteral("intent.");
    if (!entry.action.startsWith(prefix))
        return std::nullopt;
    const QString name = entry.action.mid(prefix.size());
    AuditIntent i;
    if (name == QLatin1String("stop"))
        i.intent = OperatorIntent::Stop;
    else if (name == QLatin1String("drain"))
        i.intent = OperatorIntent::Drain;
    else if (name == QLatin1String("none"))
        i.intent = OperatorIntent::None;
    else
        return std::nullopt;
    // The target is "<role> <host:port>"; the engine is its last word.
    i.engineId = entry.target.section(QLatin1Char(' '), -1);
    if (!i.engineId.contains(QLatin1Char(':')))
        return std::nullopt;
    i.detail = entry.detail;
    i.who = entry.host.isEmpty() ? entry.user : QStringLiteral("%1@%2").arg(entry.user, entry.host);
    i.atMs = entry.time.isValid() ? entry.time.toMSecsSinceEpoch() : 0;
    return i;
}

AuditIntentFeed::AuditIntentFeed(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
    connect(&m_timer, &QTimer::timeout, this, &AuditIntentFeed::poll);
}

void AuditIntentFeed::start(int intervalMs)
{
    m_timer.start(intervalMs);
    poll();
}

void AuditIntentFeed::stop()
{
    m_timer.stop();
}

void AuditIntentFeed::poll()
{
    if (!m_positioned) {
        // The first read starts near the end, at a line's start: the recent past, not the whole history.
        m_positioned = true;
        QFile f(m_path);
        if (f.open(QIODevice::ReadOnly) && f.size() > kFirstReadBytes && f.seek(f.size() - kFirstReadBytes)) {
            f.readLine(); // the rest of a line cut in the middle
            m_cursor.offset = f.pos();
            f.seek(0);
            m_cursor.head = f.read(256); // as readAuditLogOn keeps it, to notice a replaced file
        }
    }
    if (QFileInfo(m_path).size() == m_cursor.offset)
        return; // nothing appended
    for (const AuditEntry &e : readAuditLogOn(m_path, m_cursor).entries)
        if (const std::optional<AuditIntent> i = auditIntentOf(e))
            Q_EMIT intentRead(*i);
}

} // namespace pd
