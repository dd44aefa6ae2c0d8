// SPDX-License-Identifier: MIT
#pragma once
// Reading the fixtures under tests/data, and literal string lists, for tests built with
// QT_NO_CAST_FROM_ASCII. Header-only.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QStringList>

#include <initializer_list>

namespace pd::test {

// The bytes of tests/data/`relative` ("metrics/sample-vllm-metrics.txt"); a fatal error when the file
// cannot be read: the test is built on it.
inline QByteArray readTestData(const QString &relative)
{
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(relative));
    return f.readAll();
}

// {"a", "b"} as a QStringList (UTF-8).
inline QStringList strings(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *s : list)
        out.append(QString::fromUtf8(s));
    return out;
}

} // namespace pd::test
