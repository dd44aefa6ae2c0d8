// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

// Reads a local file an import takes (a rank table, a start script), refusing one over `maxBytes`
// before reading it whole. Nullopt with "PATH: why" in *error. pdctl and the console's import dialog
// share it, so both refuse the same files with the same words.
namespace pd {

constexpr qint64 kMaxStartScriptBytes = 1 << 20;

std::optional<QByteArray> readImportFile(const QString &path, qint64 maxBytes, const QString &what, QString *error);

} // namespace pd
