// SPDX-License-Identifier: MIT
#include "cluster/jsonreader.h"

#include "cluster/strictjson.h"

#include <cmath>

namespace pd {

QString JsonReader::child(const QString &pointer, const char *key)
{
    return pointer + QLatin1Char('/') + jsonPointerToken(QString::fromUtf8(key));
}

QString JsonReader::child(const QString &pointer, qsizetype index)
{
    return pointer + QLatin1Char('/') + QString::number(index);
}

QString JsonReader::typeName(const ojson &value)
{
    switch (value.type()) {
    case ojson::value_t::null: return QStringLiteral("null");
    case ojson::value_t::boolean: return QStringLiteral("a boolean");
    case ojson::value_t::number_integer:
    case ojson::value_t::number_unsigned: return QStringLiteral("an integer");
    case ojson::value_t::number_float: return QStringLiteral("a number");
    case ojson::value_t::string: return QStringLiteral("a string");
    case ojson::value_t::array: return QStringLiteral("an array");
    case ojson::value_t::object: return QStringLiteral("an object");
    default: return QStringLiteral("an unsupported value");
    }
}

void JsonReader::addProblem(const QString &pointer, const QString &message)
{
    m_problems.append({pointer.isEmpty() ? QStringLiteral("/") : pointer, message});
}

bool JsonReader::expectObject(const ojson &value, const QString &pointer,
                              std::initializer_list<const char *> known, std::initializer_list<const char *> required)
{
    if (!value.is_object()) {
        addProblem(pointer, QStringLiteral("expected an object, got %1").arg(typeName(value)));
        return false;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
        bool isKnown = false;
        for (const char *k : known)
            isKnown = isKnown || it.key() == k;
        if (!isKnown) {
            QStringList names;
            for (const char *k : known)
                names.append(QString::fromUtf8(k));
            addProblem(child(pointer, it.key().c_str()),
                       QStringLiteral("unknown key \"%1\" (expected one of: %2)")
                           .arg(QString::fromStdString(it.key()), names.join(QStringLiteral(", "))));
        }
    }
    for (const char *k : required) {
        if (!value.contains(k))
            addProblem(pointer, QStringLiteral("missing required key \"%1\"").arg(QString::fromUtf8(k)));
    }
    return true;
}

bool JsonReader::expectArray(const ojson &value, const QString &pointer)
{
    if (value.is_array())
        return true;
    addProblem(pointer, QStringLiteral("expected an array, got %1").arg(typeName(value)));
    return false;
}

void JsonReader::readString(const ojson &object, const QString &pointer, const char *key, QString *out)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    if (!it->is_string()) {
        addProblem(child(pointer, key), QStringLiteral("expected a string, got %1").arg(typeName(*it)));
        return;
    }
    *out = QString::fromStdString(it->get<std::string>());
}

void JsonReader::readInt(const ojson &object, const QString &pointer, const char *key, int *out, qint64 min,
                         qint64 max)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    const QString where = child(pointer, key);
    if (it->is_number_unsigned()) {
        const auto v = it->get<std::uint64_t>();
        if (v > std::uint64_t(max) || (min > 0 && v < std::uint64_t(min))) {
            addProblem(where, QStringLiteral("%1 is out of range (%2..%3)").arg(v).arg(min).arg(max));
            return;
        }
        *out = int(v);
        return;
    }
    if (it->is_number_integer()) {
        const auto v = it->get<std::int64_t>();
        if (v < min || v > max) {
            addProblem(where, QStringLiteral("%1 is out of range (%2..%3)").arg(v).arg(min).arg(max));
            return;
        }
        *out = int(v);
        return;
    }
    if (it->is_number_float()) {
        addProblem(where, QStringLiteral("expected an integer, got %1").arg(it->get<double>()));
        return;
    }
    addProblem(where, QStringLiteral("expected an integer, got %1").arg(typeName(*it)));
}

void JsonReader::readDouble(const ojson &object, const QString &pointer, const char *key, double *out, double min,
                            double max)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    const QString where = child(pointer, key);
    if (!it->is_number()) {
        addProblem(where, QStringLiteral("expected a number, got %1").arg(typeName(*it)));
        return;
    }
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < min || v > max) {
        addProblem(where, QStringLiteral("%1 is out of range (%2..%3)").arg(v).arg(min).arg(max));
        return;
    }
    *out = v;
}

void JsonReader::readStringList(const ojson &object, const QString &pointer, const char *key, QStringList *out)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    const QString where = child(pointer, key);
    if (!expectArray(*it, where))
        return;
    QStringList list;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const ojson &item = (*it)[i];
        if (!item.is_string()) {
            addProblem(child(where, qsizetype(i)), QStringLiteral("expected a string, got %1").arg(typeName(item)));
            continue;
        }
        list.append(QString::fromStdString(item.get<std::string>()));
    }
    *out = list;
}

void JsonReader::readRawObject(const ojson &object, const QString &pointer, const char *key, ojson *out)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    if (!it->is_object()) {
        addProblem(child(pointer, key), QStringLiteral("expected an object, got %1").arg(typeName(*it)));
        return;
    }
    *out = *it;
}

void JsonReader::readChoice(const ojson &object, const QString &pointer, const char *key, const QStringList &choices,
                            int *out)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    QStringList quoted;
    for (const QString &c : choices)
        quoted.append(QLatin1Char('"') + c + QLatin1Char('"'));
    const QString expected = quoted.size() == 2 ? quoted.join(QStringLiteral(" or ")) : quoted.join(QStringLiteral(", "));
    if (!it->is_string()) {
        addProblem(child(pointer, key), QStringLiteral("expected %1, got %2").arg(expected, typeName(*it)));
        return;
    }
    const QString value = QString::fromStdString(it->get<std::string>());
    const qsizetype index = choices.indexOf(value);
    if (index < 0) {
        addProblem(child(pointer, key), QStringLiteral("expected %1, got \"%2\"").arg(expected, value));
        return;
    }
    *out = int(index);
}

} // namespace pd
