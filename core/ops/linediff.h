// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

// A unified diff of two texts (line based, longest common subsequence), for showing an operator what
// uploading a generated script would change on a node. Empty when the texts are equal.
namespace pd {

QString unifiedDiff(const QByteArray &before, const QByteArray &after, const QString &beforeName,
    const QString &afterName, int context = 3);

} // namespace pd
