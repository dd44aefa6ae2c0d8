// SPDX-License-Identifier: MIT
#include "cluster/importfiles.h"

#include <QFile>

namespace pd {

std::optional<QByteArray> readImportFile(const QString &path, qint64 maxBytes, const QString &what, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > maxBytes) {
        *error = QStringLiteral("%1: %2 bytes; %3 is at most %4 bytes").arg(path).arg(file.size()).arg(what).arg(maxBytes);
        return std::nullopt;
    }
    return file.read(maxBytes + 1);
}

} // namespace pd
