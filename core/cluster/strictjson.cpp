// SPDX-License-Identifier: MIT
#include "cluster/strictjson.h"

#include <QRegularExpression>

#include <string>
#include <vector>

namespace pd {

using ojson = nlohmann::ordered_json;

QString jsonPointerToken(const QString &token)
{
    QString escaped = token;
    escaped.replace(QLatin1Char('~'), QLatin1String("~0"));
    escaped.replace(QLatin1Char('/'), QLatin1String("~1"));
    return escaped;
}

namespace {

// A DOM builder over nlohmann's SAX events that refuses duplicate keys.
class StrictBuilder final : public nlohmann::json_sax<ojson> {
public:
    ojson root;
    QString duplicatePointer;
    QString duplicateKey;
    std::size_t errorPosition = 0;
    std::string errorText;
    bool syntaxError = false;

    bool null() override { return add(ojson(nullptr)); }
    bool boolean(bool v) override { return add(ojson(v)); }
    bool number_integer(number_integer_t v) override { return add(ojson(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add(ojson(v)); }
    bool number_float(number_float_t v, const string_t &) override { return add(ojson(v)); }
    bool string(string_t &v) override { return add(ojson(v)); }
    bool binary(binary_t &) override { return add(ojson(nullptr)); }
    bool start_object(std::size_t) override { return open(ojson::object()); }
    bool start_array(std::size_t) override { return open(ojson::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t &k) override
    {
        ojson *top = m_stack.back();
        if (top->contains(k)) {
            duplicateKey = QString::fromStdString(k);
            duplicatePointer = m_pointers.back() + QLatin1Char('/') + jsonPointerToken(duplicateKey);
            return false;
        }
        m_key = k;
        return true;
    }

    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &ex) override
    {
        syntaxError = true;
        errorPosition = position;
        errorText = ex.what();
        return false;
    }

private:
    ojson *place(ojson &&value, QString *pointer)
    {
        if (m_stack.empty()) {
            root = std::move(value);
            *pointer = QString();
            return &root;
        }
        ojson *top = m_stack.back();
        if (top->is_array()) {
            top->push_back(std::move(value));
            *pointer = m_pointers.back() + QLatin1Char('/') + QString::number(top->size() - 1);
            return &top->back();
        }
        ojson &slot = (*top)[m_key];
        slot = std::move(value);
        *pointer = m_pointers.back() + QLatin1Char('/') + jsonPointerToken(QString::fromStdString(m_key));
        return &slot;
    }
    bool add(ojson &&value)
    {
        QString pointer;
        place(std::move(value), &pointer);
        return true;
    }
    bool open(ojson &&container)
    {
        QString pointer;
        ojson *p = place(std::move(container), &pointer);
        m_stack.push_back(p);
        m_pointers.push_back(pointer);
        return true;
    }
    bool close()
    {
        m_stack.pop_back();
        m_pointers.pop_back();
        return true;
    }

    std::vector<ojson *> m_stack;
    std::vector<QString> m_pointers;
    std::string m_key;
};

void lineAndColumn(const QByteArray &bytes, std::size_t position, int *line, int *column)
{
    // nlohmann reports the position one past the offending character.
    const qsizetype end = qMin<qsizetype>(qsizetype(position), bytes.size());
    int l = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < end; ++i) {
        if (bytes.at(i) == '\n') {
            ++l;
            lineStart = i + 1;
        }
    }
    *line = l;
    *column = int(qMax<qsizetype>(1, end - lineStart));
}

QString cleanMessage(const std::string &what)
{
    // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error while parsing
    // object - unexpected '}'; expected string literal" -> the part after the location.
    QString text = QString::fromStdString(what);
    static const QRegularExpression prefix(QStringLiteral("^\\[json\\.exception\\.[a-z_]+\\.\\d+\\] "
                                                          "(parse error( at line \\d+, column \\d+)?: )?"));
    text.remove(prefix);
    return text;
}

} // namespace

StrictJsonResult parseStrictJson(const QByteArray &bytes)
{
    StrictJsonResult result;
    StrictBuilder builder;
    const bool ok = ojson::sax_parse(bytes.constData(), bytes.constData() + bytes.size(), &builder,
                                     nlohmann::detail::input_format_t::json, true);
    if (ok) {
        result.ok = true;
        result.value = std::move(builder.root);
        return result;
    }
    if (!builder.duplicatePointer.isEmpty()) {
        result.pointer = builder.duplicatePointer;
        result.message = QStringLiteral("duplicate key \"%1\"").arg(builder.duplicateKey);
        return result;
    }
    lineAndColumn(bytes, builder.errorPosition, &result.line, &result.column);
    result.message = builder.syntaxError ? cleanMessage(builder.errorText)
                                         : QStringLiteral("invalid JSON");
    return result;
}

} // namespace pd
