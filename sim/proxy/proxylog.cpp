// SPDX-License-Identifier: MIT
#include "proxylog.h"

namespace pd::sim {

ProxyLogLevel proxyLogLevel(const QString &name)
{
    if (name == QLatin1String("DEBUG"))
        return ProxyLogLevel::Debug;
    if (name == QLatin1String("WARNING"))
        return ProxyLogLevel::Warning;
    if (name == QLatin1String("ERROR"))
        return ProxyLogLevel::Error;
    if (name == QLatin1String("CRITICAL"))
        return ProxyLogLevel::Critical;
    return ProxyLogLevel::Info;
}

void ProxyLog::print(const QString &line) const
{
    if (write)
        write(ProxyStream::Stdout, line);
}

void ProxyLog::log(ProxyLogLevel messageLevel, const QString &message) const
{
    if (!write || int(messageLevel) < int(level))
        return;
    QString name;
    switch (messageLevel) {
    case ProxyLogLevel::Debug: name = QStringLiteral("DEBUG"); break;
    case ProxyLogLevel::Info: name = QStringLiteral("INFO"); break;
    case ProxyLogLevel::Warning: name = QStringLiteral("WARNING"); break;
    case ProxyLogLevel::Error: name = QStringLiteral("ERROR"); break;
    case ProxyLogLevel::Critical: name = QStringLiteral("CRITICAL"); break;
    }
    write(ProxyStream::Stderr, name + QLatin1Char(' ') + message);
}

void ProxyLog::raw(const QString &line) const
{
    if (write)
        write(ProxyStream::Stderr, line);
}

} // namespace pd::sim
