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
    const qint64 size = QFileInfo(m_path).size();
    if (m_offset < 0) {
        // Near the end, at a line's start: the first complete line after the cut is read.
        m_offset = std::max<qint64>(0, size - kFirstReadBytes);
        if (m_offset > 0) {
            QFile f(m_path);
            if (f.open(QIODevice::ReadOnly) && f.seek(m_offset)) {
                f.readLine(); // the rest of a line cut in the middle
                m_offset = f.pos();
            }
        }
    }
    if (size < m_offset)
        m_offset = 0; // cut short or replaced: from the start
    if (size == m_offset)
        return;
    const AuditReadResult read = readAuditLog(m_path, m_offset);
    if (!read.opened)
        return;
    if (!m_head.isEmpty() && m_offset > 0 && !read.head.startsWith(m_head.left(read.head.size()))) {
        m_offset = 0; // another file under the same name
        m_head.clear();
        poll();
        return;
    }
    m_head = read.head;
    m_offset = read.endOffset;
    for (const AuditEntry &e : read.entries)
        if (const std::optional<AuditIntent> i = auditIntentOf(e))
            Q_EMIT intentRead(*i);
}

} // namespace pd
