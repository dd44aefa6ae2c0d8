// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

// Parses JSON text strictly: duplicate keys are errors (named by JSON pointer), syntax errors carry a
// 1-based line and column, invalid UTF-8 is a syntax error. Used by every loader of outside JSON.
namespace pd {

struct StrictJsonResult {
    nlohmann::ordered_json value;
    bool ok = false;
    QString pointer;  // where a duplicate key was found
    int line = 0;
    int column = 0;
    QString message;
};

StrictJsonResult parseStrictJson(const QByteArray &bytes);

// "/a/b~1c" style escaping of one reference token (RFC 6901).
QString jsonPointerToken(const QString &token);

} // namespace pd
