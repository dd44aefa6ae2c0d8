// SPDX-License-Identifier: MIT
#include "util/proxyfilename.h"

#include <QCryptographicHash>
#include <QUrl>

namespace pd {

QString perProxyFileName(const QString &proxyBase)
{
    const QUrl url(proxyBase);
    QString stem = QStringLiteral("%1-%2").arg(url.host()).arg(url.port(80));
    for (QChar &c : stem)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    const QByteArray hash = QCryptographicHash::hash(proxyBase.toUtf8(), QCryptographicHash::Sha256).toHex().left(8);
    return stem + QLatin1Char('-') + QString::fromLatin1(hash) + QStringLiteral(".json");
}

} // namespace pd
