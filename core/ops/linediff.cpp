// SPDX-License-Identifier: MIT
#include "ops/linediff.h"

#include <QList>

#include <vector>

namespace pd {

namespace {

QList<QByteArray> splitLines(const QByteArray &text)
{
    QList<QByteArray> lines = text.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

struct Edit {
    char kind; // ' ', '-', '+'
    int a; // line index in before (for ' ' and '-')
    int b; // line index in after (for ' ' and '+')
};

QString hunkRange(int start, int count)
{
    // Unified format: 1-based start; an empty range names the line before it.
    if (count == 0)
        return QStringLiteral("%1,0").arg(start);
    if (count == 1)
        return QString::number(start + 1);
    return QStringLiteral("%1,%2").arg(start + 1).arg(count);
}

} // namespace

QString unifiedDiff(
    const QByteArray &before, const QByteArray &after, const QString &beforeName, const QString &afterName, int context)
{
    if (before == after)
        return QString();
    const QList<QByteArray> a = splitLines(before);
    const QList<QByteArray> b = splitLines(after);
    const int n = int(a.size());
    const int m = int(b.size());
    // LCS lengths of suffixes; scripts are a few hundred lines, so n*m is small.
    std::vector<std::vector<int>> lcs(size_t(n + 1), std::vector<int>(size_t(m + 1), 0));
    for (int i = n - 1; i >= 0; --i) {
        for (int j = m - 1; j >= 0; --j)
            lcs[size_t(i)][size_t(j)] = a.at(i) == b.at(j)
                ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                : std::max(lcs[size_t(i + 1)][size_t(j)], lcs[size_t(i)][size_t(j + 1)]);
    }
    QList<Edit> edits;
    int i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a.at(i) == b.at(j)) {
            edits.append({ ' ', i++, j++ });
        } else if (i < n && (j == m || lcs[size_t(i + 1)][size_t(j)] >= lcs[size_t(i)][size_t(j + 1)])) {
            edits.append({ '-', i++, j }); // removals first, as diff -u prints them
        } else {
            edits.append({ '+', i, j++ });
        }
    }
    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(beforeName, afterName);
    const int total = int(edits.size());
    int k = 0;
    while (k < total) {
        while (k < total && edits.at(k).kind == ' ')
            ++k;
        if (k == total)
            break;
        // A hunk: from `context` lines before the change to `context` lines after the last change
        // that is closer than 2*context to the next.
        const int start = std::max(0, k - context);
        int end = k;
        int lastChange = k;
        while (end < total) {
            if (edits.at(end).kind != ' ')
                lastChange = end;
            else if (end - lastChange > 2 * context)
                break;
            ++end;
        }
        end = std::min(total, lastChange + context + 1);
        int aStart = -1, bStart = -1, aCount = 0, bCount = 0;
        QString body;
        for (int e = start; e < end; ++e) {
            const Edit &edit = edits.at(e);
            if (aStart < 0)
                aStart = edit.a;
            if (bStart < 0)
                bStart = edit.b;
            if (edit.kind != '+')
                ++aCount;
            if (edit.kind != '-')
                ++bCount;
            const QByteArray &line = edit.kind == '+' ? b.at(edit.b) : a.at(edit.a);
            body += QLatin1Char(edit.kind) + QString::fromUtf8(line) + QLatin1Char('\n');
        }
        out += QStringLiteral("@@ -%1 +%2 @@\n").arg(hunkRange(aStart, aCount), hunkRange(bStart, bCount)) + body;
        k = end;
    }
    return out;
}

} // namespace pd
