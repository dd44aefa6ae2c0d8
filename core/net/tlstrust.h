// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QSslCertificate>
#include <QString>

class QNetworkRequest;

// The extra certificate authorities a profile trusts (tls.ca_file) for the https proxy and engines, on
// top of the system's. Verification is never switched off.
namespace pd {

struct CaFile {
    QList<QSslCertificate> certificates;
    QString error; // "certs/ca.pem: no PEM certificate in it", "...: No such file or directory"
};

// Reads every PEM certificate of `path`; an empty path is no extra trust (and no error).
CaFile loadCaFile(const QString &path);

// Verifies the peer of an https `request` against the system's CAs plus `extra`.
void applyTlsTrust(QNetworkRequest &request, const QList<QSslCertificate> &extra);

} // namespace pd
