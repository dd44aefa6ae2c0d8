// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

// POSIX shell quoting of one word: the word inside single quotes, every ' written as '\''.
// Safe for any byte sequence (metacharacters, newlines, non-ASCII); an empty word becomes ''.
// (The SSH branch owns the one function that builds whole remote commands; this is the word-level
// primitive node checks and log tails need. Merge into it when both land.)
namespace pd {

inline QByteArray shellArg(const QByteArray &word)
{
    QByteArray out;
    out.reserve(word.size() + 2);
    out.append('\'');
    for (char c : word) {
        if (c == '\'')
            out.append("'\\''");
        else
            out.append(c);
    }
    out.append('\'');
    return out;
}

inline QByteArray shellArg(const QString &word)
{
    return shellArg(word.toUtf8());
}

} // namespace pd
