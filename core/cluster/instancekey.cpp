// SPDX-License-Identifier: MIT
#include "cluster/instancekey.h"

namespace pd {

namespace {

// Replaces every occurrence of `from` (no overlap, left to right) by "0.0.0.0". indexOf on a short needle
// needs no QStringMatcher, which QString::replace builds on every call: this runs for every engine of
// every membership reconciliation.
void replaceLoopback(QString &key, QLatin1String from)
{
    static const QLatin1String to("0.0.0.0");
    for (qsizetype at = key.indexOf(from); at >= 0; at = key.indexOf(from, at + to.size()))
        key.replace(at, from.size(), to);
}

} // namespace

QString proxyInstanceKey(const QString &hostPort)
{
    QString key = hostPort.trimmed();
    replaceLoopback(key, QLatin1String("localhost"));
    replaceLoopback(key, QLatin1String("127.0.0.1"));
    return key;
}

QString proxyInstanceKey(const QString &host, int port)
{
    return proxyInstanceKey(host + QLatin1Char(':') + QString::number(port));
}

} // namespace pd
