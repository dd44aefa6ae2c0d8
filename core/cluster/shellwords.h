// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

// Splits a command line the way a POSIX shell would for plain words: single and double quotes,
// backslash escapes, backslash-newline continuations. No expansion of any kind. Returns nullopt and
// sets *error on an unterminated quote.
namespace pd {

std::optional<QStringList> splitShellWords(const QString &text, QString *error);

} // namespace pd
