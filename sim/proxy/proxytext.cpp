// SPDX-License-Identifier: MIT
#include "proxytext.h"

namespace pd::sim {

QString pythonRepr(const QString &text)
{
    const QChar quote = text.contains(QLatin1Char('\'')) && !text.contains(QLatin1Char('"'))
        ? QLatin1Char('"')
        : QLatin1Char('\'');
    QString out(quote);
    for (const QChar c : text) {
        if (c == quote || c == QLatin1Char('\\')) {
            out += QLatin1Char('\\');
            out += c;
        } else if (c == QLatin1Char('\n')) {
            out += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\r')) {
            out += QStringLiteral("\\r");
        } else if (c == QLatin1Char('\t')) {
            out += QStringLiteral("\\t");
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    out += quote;
    return out;
}

QString pythonListRepr(const QStringList &items)
{
    QStringList reprs;
    reprs.reserve(items.size());
    for (const QString &item : items)
        reprs << pythonRepr(item);
    return QLatin1Char('[') + reprs.join(QStringLiteral(", ")) + QLatin1Char(']');
}

namespace {

QString pythonReprOf(const OrderedJson &value)
{
    switch (value.type()) {
    case OrderedJson::value_t::null:
        return QStringLiteral("None");
    case OrderedJson::value_t::boolean:
        return value.get<bool>() ? QStringLiteral("True") : QStringLiteral("False");
    case OrderedJson::value_t::string:
        return pythonRepr(QString::fromStdString(value.get<std::string>()));
    case OrderedJson::value_t::array: {
        QStringList parts;
        for (const auto &item : value)
            parts << pythonReprOf(item);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case OrderedJson::value_t::object: {
        QStringList parts;
        for (auto it = value.begin(); it != value.end(); ++it)
            parts << pythonRepr(QString::fromStdString(it.key())) + QStringLiteral(": ")
                    + pythonReprOf(it.value());
        return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    default:
        return QString::fromStdString(value.dump());
    }
}

void dumpPython(const OrderedJson &value, std::string &out)
{
    switch (value.type()) {
    case OrderedJson::value_t::array: {
        out += '[';
        bool first = true;
        for (const auto &item : value) {
            if (!first)
                out += ", ";
            first = false;
            dumpPython(item, out);
        }
        out += ']';
        break;
    }
    case OrderedJson::value_t::object: {
        out += '{';
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!first)
                out += ", ";
            first = false;
            out += OrderedJson(it.key()).dump(-1, ' ', true);
            out += ": ";
            dumpPython(it.value(), out);
        }
        out += '}';
        break;
    }
    default:
        out += value.dump(-1, ' ', true);
        break;
    }
}

} // namespace

QString pythonStr(const OrderedJson &value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    return pythonReprOf(value);
}

QByteArray compactJson(const OrderedJson &value)
{
    return QByteArray::fromStdString(value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace));
}

QByteArray pythonJsonDumps(const OrderedJson &value)
{
    std::string out;
    dumpPython(value, out);
    return QByteArray::fromStdString(out);
}

} // namespace pd::sim
