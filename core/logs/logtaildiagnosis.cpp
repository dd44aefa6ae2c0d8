// SPDX-License-Identifier: MIT
#include "logs/logtaildiagnosis.h"

#include "logs/logmatcher.h"
#include "logs/logsignatures.h"

namespace pd {

QString LogTailDiagnosis::text() const
{
    return QStringLiteral("cause in the log: %1 (\"%2\"); fix: %3").arg(title, line, fix);
}

std::optional<LogTailDiagnosis> diagnoseLogTail(QByteArrayView tail)
{
    // One per thread (starts run on the engine controller's pool): the matcher holds compiled expressions.
    thread_local const LogMatcher matcher;
    std::optional<LogTailDiagnosis> found;
    matcher.scan(tail, [&found, tail](qint64, qsizetype begin, qsizetype end, const LogLineClass &c) {
        if (found || c.signatureId <= 0)
            return;
        const LogSignature *s = logSignature(c.signatureId);
        if (!s)
            return;
        QString line = QString::fromUtf8(tail.sliced(begin, end - begin)).trimmed();
        if (line.size() > 200)
            line = line.left(199) + QChar(0x2026);
        found = LogTailDiagnosis{c.signatureId, s->title, s->fix, line};
    });
    return found;
}

} // namespace pd
