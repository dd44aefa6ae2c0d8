// SPDX-License-Identifier: MIT
#include "cluster/shellwords.h"

namespace pd {

std::optional<QStringList> splitShellWords(const QString &text, QString *error)
{
    QStringList words;
    QString current;
    bool inWord = false;
    enum class Quote { None, Single, Double } quote = Quote::None;
    qsizetype quoteStart = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quote == Quote::Single) {
            if (c == QLatin1Char('\''))
                quote = Quote::None;
            else
                current += c;
            continue;
        }
        if (quote == Quote::Double) {
            if (c == QLatin1Char('"')) {
                quote = Quote::None;
            } else if (c == QLatin1Char('\\') && i + 1 < text.size() &&
                       QStringLiteral("\"\\$`\n").contains(text.at(i + 1))) {
                if (text.at(i + 1) != QLatin1Char('\n'))
                    current += text.at(i + 1);
                ++i;
            } else {
                current += c;
            }
            continue;
        }
        if (c == QLatin1Char('\\')) {
            if (i + 1 < text.size()) {
                if (text.at(i + 1) == QLatin1Char('\n') || text.at(i + 1) == QLatin1Char('\r')) {
                    // continuation; swallow \r\n too
                    i += (text.at(i + 1) == QLatin1Char('\r') && i + 2 < text.size() &&
                          text.at(i + 2) == QLatin1Char('\n')) ? 2 : 1;
                    continue;
                }
                current += text.at(i + 1);
                inWord = true;
                ++i;
            }
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c == QLatin1Char('\'') ? Quote::Single : Quote::Double;
            quoteStart = i;
            inWord = true;
            continue;
        }
        if (c.isSpace()) {
            if (inWord) {
                words.append(current);
                current.clear();
                inWord = false;
            }
            continue;
        }
        current += c;
        inWord = true;
    }
    if (quote != Quote::None) {
        if (error)
            *error = QStringLiteral("unterminated %1 quote starting at character %2")
                         .arg(quote == Quote::Single ? QStringLiteral("single") : QStringLiteral("double"))
                         .arg(quoteStart + 1);
        return std::nullopt;
    }
    if (inWord)
        words.append(current);
    return words;
}

} // namespace pd
