// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstddef>

// Every command line the console sends to a node's shell is built here. Shell syntax (operators,
// redirections, fixed program names) can only come from string literals in the source; every value
// from a profile, an operator or a file goes through quoteShellWord() and arrives as one literal word.
namespace pd {

// POSIX single-quote quoting: 'it'\''s'. Quotes every word (also the empty one), so nothing inside
// is ever expanded, split or globbed by sh, dash or bash. The caller must have refused NUL bytes
// (ShellCommand does).
QByteArray quoteShellWord(const QString &word);
// The same, but a word made only of characters no shell treats specially ([A-Za-z0-9_./:=,@%+-],
// not empty, not starting with '~' or '=') stays bare: for scripts people read.
QByteArray quoteShellWordIfNeeded(const QString &word);

class ShellCommand final {
public:
    // Literal shell syntax written in the source: `mkdir -p`, `&&`, `>`, `2>&1 </dev/null &`.
    template<std::size_t N> ShellCommand &syntax(const char (&text)[N])
    {
        appendSyntax(QByteArray(text, qsizetype(N - 1)));
        return *this;
    }
    // One value as one literal word. `field` names it in errors ("model_path", "node d1 address").
    ShellCommand &word(const QString &field, const QString &value);
    // Several values, one word each, separated by spaces.
    ShellCommand &words(const QString &field, const QStringList &values);
    // A value glued to the previous piece without a space: `--port=` then value -> --port='9000'.
    ShellCommand &gluedWord(const QString &field, const QString &value);
    // "${NAME}" for a variable whose name is a validated identifier (refused otherwise).
    ShellCommand &variable(const QString &field, const QString &name);
    // NAME='value' as one word (a prefix assignment or after `export`); the name must be an identifier.
    ShellCommand &assignment(const QString &field, const QString &name, const QString &value);
    // NAME="${SOURCE:?...}": passes a variable of the node's shell on under another name; the command
    // stops with "SOURCE is not set or empty" when it is.
    ShellCommand &assignmentFromVariable(const QString &field, const QString &name, const QString &source);
    // `: "${NAME:?NAME is not set or empty}"`: stops the command, naming the variable, when it is unset.
    ShellCommand &requireVariable(const QString &field, const QString &name);
    // A here-document whose body is passed verbatim: `<<'TAG'` + newline + body + TAG. The body must
    // not contain a line equal to the tag, NUL bytes, and must end with a newline (added if missing).
    ShellCommand &hereDocument(const QString &field, const QByteArray &body, const QByteArray &tag);
    // A newline: the next piece starts a new shell command line.
    ShellCommand &newline();
    // Appends another command (its syntax and words), keeping its first error.
    ShellCommand &append(const ShellCommand &other);

    bool isValid() const { return m_error.isEmpty(); }
    // The first refused value: "field model_path: contains a NUL byte".
    QString error() const { return m_error; }
    // The command line; a pending here-document body is appended after a final newline.
    QByteArray line() const;

private:
    void appendSyntax(const QByteArray &text);
    bool accept(const QString &field, const QString &value);
    bool acceptIdentifier(const QString &field, const QString &name);
    void separate();

    QByteArray m_line;
    QByteArray m_pendingHereDoc;
    QString m_error;
    bool m_glue = false;
};

} // namespace pd
