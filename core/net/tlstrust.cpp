// SPDX-License-Identifier: MIT
#include "net/tlstrust.h"
#include "util/boundedfile.h"

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
    // A profile names it: a FIFO or a device there must not block or exhaust whoever validates the profile.
    const BoundedFile file = readBoundedRegularFile(path, 4 * 1024 * 1024);
    if (!file.ok()) {
        out.error = file.error;
        return out;
    }
    out.certificates = QSslCertificate::fromData(file.bytes, QSsl::Pem);
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
