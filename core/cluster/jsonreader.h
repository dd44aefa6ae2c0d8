// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <initializer_list>

// Reads typed fields out of a parsed JSON document and records every schema problem with the JSON
// pointer of the offending value. Reading goes on after a problem so one pass reports them all.
namespace pd {

struct JsonProblem {
    QString pointer;
    QString message;
};

class JsonReader final {
public:
    using ojson = nlohmann::ordered_json;

    // Checks that `value` at `pointer` is an object whose keys are all in `known`, and that every key
    // of `required` is present. Returns false (and records) when it is not an object.
    bool expectObject(const ojson &value, const QString &pointer, std::initializer_list<const char *> known,
                      std::initializer_list<const char *> required = {});
    bool expectArray(const ojson &value, const QString &pointer);

    // Each reader leaves `out` untouched when the key is absent or the value is wrong.
    void readString(const ojson &object, const QString &pointer, const char *key, QString *out);
    void readInt(const ojson &object, const QString &pointer, const char *key, int *out, qint64 min, qint64 max);
    void readDouble(const ojson &object, const QString &pointer, const char *key, double *out, double min,
                    double max);
    void readStringList(const ojson &object, const QString &pointer, const char *key, QStringList *out);
    void readRawObject(const ojson &object, const QString &pointer, const char *key, ojson *out);
    // `choices` in the order of the enum's values; the matching index is written to *out.
    void readChoice(const ojson &object, const QString &pointer, const char *key, const QStringList &choices,
                    int *out);

    void addProblem(const QString &pointer, const QString &message);
    const QList<JsonProblem> &problems() const { return m_problems; }

    static QString child(const QString &pointer, const char *key);
    static QString child(const QString &pointer, qsizetype index);
    static QString typeName(const ojson &value);

private:
    QList<JsonProblem> m_problems;
};

} // namespace pd
