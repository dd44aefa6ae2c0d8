// SPDX-License-Identifier: MIT
#include "net/tlstrust.h"

#include <QFile>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslSocket>

namespace pd {

CaFile loadCaFile(const QString &path)
{
    CaFile out;
    if (path.isEmpty())
        return out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return out;
    }
    if (file.size() > 4 * 1024 * 1024) {
        out.error = QStringLiteral("%1: %2 bytes, not a CA file").arg(path).arg(file.size());
        return out;
    }
    out.certificates = QSslCertificate::fromData(file.readAll(), QSsl::Pem);
    if (out.certificates.isEmpty())
        out.error = QStringLiteral("%1: no PEM certificate in it").arg(path);
    return out;
}

void applyTlsTrust(QNetworkRequest &request, const QList<QSslCertificate> &extra)
{
    if (request.url().scheme() != QLatin1String("https"))
        return;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (!extra.isEmpty())
        ssl.addCaCertificates(extra);
    request.setSslConfiguration(ssl);
}

} // namespace pd
