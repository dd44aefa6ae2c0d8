// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QPair>
#include <QString>

// The hostile values thrown at every field that reaches a shell. `canary` is a file name that any
// successful command substitution would create; tests check it never appears.
namespace pdtest {

inline QList<QPair<const char *, QString>> metacharacterValues(const QString &canary)
{
    return {
        { "dollar-paren", QStringLiteral("$(touch %1)").arg(canary) },
        { "backticks", QStringLiteral("`touch %1`").arg(canary) },
        { "semicolon", QStringLiteral("a; touch %1").arg(canary) },
        { "pipe", QStringLiteral("a | touch %1").arg(canary) },
        { "ampersand", QStringLiteral("a & touch %1 &").arg(canary) },
        { "and-or", QStringLiteral("a && touch %1 || touch %1").arg(canary) },
        { "newline", QStringLiteral("a\ntouch %1\n").arg(canary) },
        { "single-quote", QStringLiteral("it's '$(touch %1)'").arg(canary) },
        { "double-quote", QStringLiteral("say \"$(touch %1)\"").arg(canary) },
        { "glob-star", QStringLiteral("*") },
        { "glob-mixed", QStringLiteral("/*/[a-z]?*") },
        { "spaces", QStringLiteral("  two  spaces\tand tab  ") },
        { "non-ascii", QStringLiteral("模型 décodé ß \u00e9\U0001F680") },
        { "variables", QStringLiteral("$HOME ${PATH} $1 $@ $$ $!") },
        { "backslashes", QStringLiteral("a\\b\\\\c\\'d\\") },
        { "redirections", QStringLiteral("> %1 < /dev/null 2>&1").arg(canary) },
        { "leading-dash", QStringLiteral("-rf --help") },
        { "tilde-brace", QStringLiteral("~root {a,b} #comment") },
        { "heredoc-ish", QStringLiteral("<<EOF\nEOF") },
        { "carriage-return", QStringLiteral("a\r\nb") },
    };
}

} // namespace pdtest
