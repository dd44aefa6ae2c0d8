// SPDX-License-Identifier: MIT
#include "exec/shellcommand.h"

#include <QRegularExpression>

namespace pd {

QByteArray quoteShellWord(const QString &word)
{
    const QByteArray bytes = word.toUtf8();
    QByteArray quoted;
    quoted.reserve(bytes.size() + 2);
    quoted.append('\'');
    for (const char c : bytes) {
        if (c == '\'')
            quoted.append("'\\''");
        else
            quoted.append(c);
    }
    quoted.append('\'');
    return quoted;
}

QByteArray quoteShellWordIfNeeded(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:,@%+-][A-Za-z0-9_./:=,@%+-]*$"));
    if (plain.match(word).hasMatch())
        return word.toLatin1();
    return quoteShellWord(word);
}

void ShellCommand::separate()
{
    if (!m_line.isEmpty() && !m_line.endsWith(' ') && !m_line.endsWith('\n') && !m_glue)
        m_line.append(' ');
    m_glue = false;
}

void ShellCommand::appendSyntax(const QByteArray &text)
{
    if (text.isEmpty())
        return;
    separate();
    m_line.append(text);
    m_glue = text.endsWith('=');
}

bool ShellCommand::accept(const QString &field, const QString &value)
{
    if (!m_error.isEmpty())
        return false;
    if (value.contains(QChar(0))) {
        m_error = QStringLiteral("field %1: contains a NUL byte, which no shell word can carry").arg(field);
        return false;
    }
    // A lone surrogate cannot be encoded as UTF-8 and would arrive as '?': refuse it instead.
    for (qsizetype i = 0; i < value.size(); ++i) {
        const QChar c = value.at(i);
        if (c.isHighSurrogate() && i + 1 < value.size() && value.at(i + 1).isLowSurrogate()) {
            ++i;
            continue;
        }
        if (c.isSurrogate()) {
            m_error = QStringLiteral("field %1: contains an unpaired UTF-16 surrogate").arg(field);
            return false;
        }
    }
    return true;
}

ShellCommand &ShellCommand::word(const QString &field, const QString &value)
{
    if (!accept(field, value))
        return *this;
    separate();
    m_line.append(quoteShellWord(value));
    return *this;
}

ShellCommand &ShellCommand::words(const QString &field, const QStringList &values)
{
    for (const QString &value : values)
        word(field, value);
    return *this;
}

ShellCommand &ShellCommand::gluedWord(const QString &field, const QString &value)
{
    if (!accept(field, value))
        return *this;
    m_line.append(quoteShellWord(value));
    m_glue = false;
    return *this;
}

bool ShellCommand::acceptIdentifier(const QString &field, const QString &name)
{
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!m_error.isEmpty())
        return false;
    if (!identifier.match(name).hasMatch()) {
        m_error = QStringLiteral("field %1: '%2' is not a shell variable name").arg(field, name);
        return false;
    }
    return true;
}

ShellCommand &ShellCommand::variable(const QString &field, const QString &name)
{
    if (!acceptIdentifier(field, name))
        return *this;
    separate();
    m_line.append("\"${" + name.toLatin1() + "}\"");
    return *this;
}

ShellCommand &ShellCommand::requireVariable(const QString &field, const QString &name)
{
    if (!acceptIdentifier(field, name))
        return *this;
    separate();
    m_line.append(": \"${" + name.toLatin1() + ":?" + name.toLatin1() + " is not set or empty}\"");
    return *this;
}

ShellCommand &ShellCommand::assignment(const QString &field, const QString &name, const QString &value)
{
    if (!acceptIdentifier(field, name) || !accept(field, value))
        return *this;
    separate();
    m_line.append(name.toLatin1() + '=' + quoteShellWord(value));
    return *this;
}

ShellCommand &ShellCommand::assignmentFromVariable(const QString &field, const QString &name, const QString &source)
{
    if (!acceptIdentifier(field, name) || !acceptIdentifier(field, source))
        return *this;
    separate();
    // ${SOURCE:?...}: an unset or empty variable stops the command with a message naming it, instead
    // of passing an empty value on.
    m_line.append(name.toLatin1() + "=\"${" + source.toLatin1() + ":?" + source.toLatin1() + " is not set or empty}\"");
    return *this;
}

ShellCommand &ShellCommand::hereDocument(const QString &field, const QByteArray &body, const QByteArray &tag)
{
    if (!m_error.isEmpty())
        return *this;
    if (body.contains('\0')) {
        m_error = QStringLiteral("field %1: contains a NUL byte").arg(field);
        return *this;
    }
    const QList<QByteArray> lines = body.split('\n');
    for (const QByteArray &l : lines) {
        if (l == tag) {
            m_error = QStringLiteral("field %1: contains the here-document end marker").arg(field);
            return *this;
        }
    }
    separate();
    m_line.append("<<'" + tag + "'");
    m_pendingHereDoc.append(body);
    if (!m_pendingHereDoc.endsWith('\n'))
        m_pendingHereDoc.append('\n');
    m_pendingHereDoc.append(tag + '\n');
    return *this;
}

ShellCommand &ShellCommand::newline()
{
    m_line.append('\n');
    if (!m_pendingHereDoc.isEmpty()) {
        m_line.append(m_pendingHereDoc);
        m_pendingHereDoc.clear();
    }
    m_glue = false;
    return *this;
}

ShellCommand &ShellCommand::append(const ShellCommand &other)
{
    if (m_error.isEmpty() && !other.m_error.isEmpty())
        m_error = other.m_error;
    if (!m_error.isEmpty())
        return *this;
    separate();
    m_line.append(other.line());
    return *this;
}

QByteArray ShellCommand::line() const
{
    if (m_pendingHereDoc.isEmpty())
        return m_line;
    return m_line + '\n' + m_pendingHereDoc;
}

} // namespace pd
