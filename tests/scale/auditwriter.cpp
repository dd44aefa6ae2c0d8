// SPDX-License-Identifier: MIT
// Test helper: appends audit lines to argv[1] as fast as it can, printing the number of each line
// after append() returned (so the parent knows which lines were durable), until it is killed.
#include "audit/auditlog.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 2)
        return 2;
    pd::AuditLog log(QString::fromLocal8Bit(argv[1]));
    for (int i = 1; i <= 1000000; ++i) {
        pd::AuditEntry e;
        e.action = QStringLiteral("scale-out.add");
        e.target = QStringLiteral("decode 127.0.0.63:9004");
        e.params = {{"seq", i}};
        e.result = QStringLiteral("done");
        e.detail = QStringLiteral("line %1").arg(i);
        e.durationMs = i;
        QString error;
        if (!log.append(e, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        std::printf("%d\n", i);
        std::fflush(stdout);
    }
    return 0;
}
