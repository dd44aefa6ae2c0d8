// SPDX-License-Identifier: MIT
#include "cluster/strictjson.h"

#include <QRegularExpression>

#include <string>
#include <unordered_set>
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
        // ordered_json looks keys up linearly: a set per open object keeps 80k keys linear, not quadratic.
        if (!m_keys.back().insert(k).second) {
            duplicateKey = QString::fromStdString(k);
            duplicatePointer = pointerOfTop() + QLatin1Char('/') + jsonPointerToken(duplicateKey);
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
    // The pointer of the innermost open container, built from the tokens only when it is needed (a
    // duplicate): keeping a whole pointer string per level would cost depth^2 on deep nesting.
    QString pointerOfTop() const
    {
        QString pointer;
        for (std::size_t i = 1; i < m_tokens.size(); ++i)
            pointer += QLatin1Char('/') + m_tokens[i];
        return pointer;
    }
    // Appends the value to the innermost container (or makes it the root); *token, when asked for, is
    // where it went in its parent: the index or the escaped key.
    ojson *place(ojson &&value, QString *token)
    {
        if (m_stack.empty()) {
            root = std::move(value);
            return &root;
        }
        ojson *top = m_stack.back();
        if (top->is_array()) {
            top->push_back(std::move(value));
            if (token)
                *token = QString::number(top->size() - 1);
            return &top->back();
        }
        // key() has seen to it that m_key is new here: append without ordered_map's linear search.
        auto &members = static_cast<std::vector<std::pair<const std::string, ojson>> &>(top->get_ref<ojson::object_t &>());
        members.emplace_back(m_key, std::move(value));
        if (token)
            *token = jsonPointerToken(QString::fromStdString(m_key));
        return &members.back().second;
    }
    bool add(ojson &&value)
    {
        place(std::move(value), nullptr);
        return true;
    }
    bool open(ojson &&container)
    {
        QString token;
        ojson *p = place(std::move(container), &token);
        m_stack.push_back(p);
        m_tokens.push_back(token);
        m_keys.emplace_back();
        return true;
    }
    bool close()
    {
        m_stack.pop_back();
        m_tokens.pop_back();
        m_keys.pop_back();
        return true;
    }

    std::vector<ojson *> m_stack;
    std::vector<QString> m_tokens; // per open container: where it sits in its parent (the root's is empty)
    std::vector<std::unordered_set<std::string>> m_keys; // per open container (unused for arrays)
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
    // nlohmann's lexer takes a NUL byte for the end of the input and would accept whatever comes after it
    // unread. JSON never holds a raw NUL (inside strings it must be escaped): refuse it where it is.
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0) {
        lineAndColumn(bytes, std::size_t(nul + 1), &result.line, &result.column);
        result.message = QStringLiteral("a NUL byte (JSON text never holds one)");
        return result;
    }
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
