// SPDX-License-Identifier: MIT
#include "ops/operationsummary.h"

namespace pd {

int OperationSummary::succeeded() const
{
    int n = 0;
    for (const ProcessOutcome &o : outcomes)
        n += o.ok ? 1 : 0;
    return n;
}

int OperationSummary::failed() const
{
    return int(outcomes.size()) - succeeded();
}

QList<ProcessOutcome> OperationSummary::failures() const
{
    QList<ProcessOutcome> list;
    for (const ProcessOutcome &o : outcomes) {
        if (!o.ok)
            list.append(o);
    }
    return list;
}

QString OperationSummary::text() const
{
    QString text = QStringLiteral("%1 %2 process%3: %4 ok, %5 failed\n")
                       .arg(processActionName(action))
                       .arg(outcomes.size())
                       .arg(outcomes.size() == 1 ? QString() : QStringLiteral("es"))
                       .arg(succeeded())
                       .arg(failed());
    for (const ProcessOutcome &o : outcomes) {
        if (o.ok)
            continue;
        text += QStringLiteral("  FAILED %1\n").arg(o.error);
        const QList<QByteArray> lines = o.logTail.trimmed().split('\n');
        for (const QByteArray &line : lines) {
            if (!line.isEmpty())
                text += QStringLiteral("    | ") + QString::fromUtf8(line) + QLatin1Char('\n');
        }
    }
    for (const QString &note : notes)
        text += QStringLiteral("  note: ") + note + QLatin1Char('\n');
    return text;
}

} // namespace pd
