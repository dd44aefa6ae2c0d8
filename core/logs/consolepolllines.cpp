// SPDX-License-Identifier: MIT
#include "logs/consolepolllines.h"

#include <QLatin1StringView>

namespace pd {

bool isConsolePollLine(QStringView line)
{
    static constexpr QLatin1StringView kMethods[] = { QLatin1StringView("\"GET "), QLatin1StringView("\"HEAD ") };
    static constexpr QLatin1StringView kPaths[] = { QLatin1StringView("/healthcheck"), QLatin1StringView("/health"),
        QLatin1StringView("/metrics"), QLatin1StringView("/v1/models"), QLatin1StringView("/ping"),
        QLatin1StringView("/version") };
    for (const QLatin1StringView method : kMethods) {
        const qsizetype at = line.indexOf(method);
        if (at < 0)
            continue;
        const QStringView target = line.mid(at + method.size());
        for (const QLatin1StringView path : kPaths) {
            if (!target.startsWith(path))
                continue;
            const QStringView rest = target.mid(path.size());
            // The path ends there (a query string is the same request): "/health" is not "/healthcheck".
            if (rest.startsWith(QLatin1StringView(" HTTP/")) || rest.startsWith(u'?'))
                return true;
        }
    }
    return false;
}

} // namespace pd
