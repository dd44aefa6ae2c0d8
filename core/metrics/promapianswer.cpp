// SPDX-License-Identifier: MIT
#include "promapianswer.h"

#include "promparser.h"

#include <nlohmann/json.hpp>

#include <QDateTime>

#include <charconv>
#include <cmath>
#include <limits>

namespace pd {

namespace {

using Json = nlohmann::json;
using Outcome = PromApiAnswer::Outcome;

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

// A short, printable rendering of a JSON value for error messages.
QString excerpt(const Json &v)
{
    std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (s.size() > 60)
        s = s.substr(0, 57) + "...";
    return q(s);
}

QString typeOf(const Json &v)
{
    return QString::fromLatin1(v.type_name());
}

// Thrown inside the decoder only; carries "path: what".
struct Bad {
    QString message;
};

[[noreturn]] void bad(const QString &path, const QString &what)
{
    throw Bad { path + QStringLiteral(": ") + what };
}

const Json &member(const Json &object, const char *name, const QString &path)
{
    const auto it = object.find(name);
    if (it == object.end())
        bad(path, QStringLiteral("no \"%1\"").arg(QLatin1String(name)));
    return *it;
}

std::string stringAt(const Json &v, const QString &path)
{
    if (!v.is_string())
        bad(path, QStringLiteral("expected a string, found %1 %2").arg(typeOf(v), excerpt(v)));
    return v.get<std::string>();
}

std::vector<std::pair<std::string, std::string>> labelsAt(const Json &v, const QString &path)
{
    if (!v.is_object())
        bad(path, QStringLiteral("expected an object of labels, found %1").arg(typeOf(v)));
    std::vector<std::pair<std::string, std::string>> labels;
    labels.reserve(v.size());
    for (auto it = v.begin(); it != v.end(); ++it)
        labels.emplace_back(it.key(), stringAt(it.value(), path + QLatin1Char('.') + q(it.key())));
    return labels;
}

// [ <unix seconds as number>, "<value as string>" ]
PromPoint pointAt(const Json &v, const QString &path)
{
    if (!v.is_array() || v.size() != 2)
        bad(path, QStringLiteral("expected [time, \"value\"], found %1").arg(excerpt(v)));
    const Json &t = v[0];
    if (!t.is_number())
        bad(path + QStringLiteral("[0]"),
            QStringLiteral("expected a time in seconds, found %1 %2").arg(typeOf(t), excerpt(t)));
    const Json &s = v[1];
    if (!s.is_string())
        bad(path + QStringLiteral("[1]"),
            QStringLiteral("expected a sample value as a string, found %1 %2").arg(typeOf(s), excerpt(s)));
    PromPoint p;
    p.timeMs = std::llround(t.get<double>() * 1000.0);
    if (!parsePromApiValue(s.get_ref<const std::string &>(), p.value))
        bad(path + QStringLiteral("[1]"), QStringLiteral("%1 is not a sample value").arg(excerpt(s)));
    return p;
}

PromResultType resultTypeOf(const std::string &name)
{
    if (name == "vector")
        return PromResultType::Vector;
    if (name == "matrix")
        return PromResultType::Matrix;
    if (name == "scalar")
        return PromResultType::Scalar;
    if (name == "string")
        return PromResultType::String;
    return PromResultType::None;
}

// `v`, the value at `path`, which must be an object (arrayAt: an array).
const Json &objectAt(const Json &v, const QString &path)
{
    if (!v.is_object())
        bad(path, QStringLiteral("expected an object, found %1").arg(typeOf(v)));
    return v;
}

const Json &arrayAt(const Json &v, const QString &path)
{
    if (!v.is_array())
        bad(path, QStringLiteral("expected an array, found %1").arg(typeOf(v)));
    return v;
}

void decodeData(const Json &data, PromApiAnswer &out)
{
    objectAt(data, QStringLiteral("data"));
    const std::string type
        = stringAt(member(data, "resultType", QStringLiteral("data")), QStringLiteral("data.resultType"));
    out.resultType = resultTypeOf(type);
    if (out.resultType == PromResultType::None)
        bad(QStringLiteral("data.resultType"), QStringLiteral("unknown result type \"%1\"").arg(q(type)));
    const Json &result = member(data, "result", QStringLiteral("data"));
    if (out.resultType == PromResultType::Scalar || out.resultType == PromResultType::String) {
        PromSeries s;
        if (out.resultType == PromResultType::Scalar)
            s.points.push_back(pointAt(result, QStringLiteral("data.result")));
        else if (!result.is_array() || result.size() != 2)
            bad(QStringLiteral("data.result"), QStringLiteral("expected [time, \"string\"]"));
        out.series.push_back(std::move(s));
        return;
    }
    arrayAt(result, QStringLiteral("data.result"));
    out.series.reserve(result.size());
    const bool matrix = out.resultType == PromResultType::Matrix;
    for (std::size_t i = 0; i < result.size(); ++i) {
        const QString path = QStringLiteral("data.result[%1]").arg(i);
        const Json &item = objectAt(result[i], path);
        PromSeries s;
        s.labels = labelsAt(member(item, "metric", path), path + QStringLiteral(".metric"));
        if (matrix) {
            if (item.contains("value"))
                bad(path, QStringLiteral("a \"value\" in a matrix (resultType says matrix, the series is a vector's)"));
            const Json &values = arrayAt(member(item, "values", path), path + QStringLiteral(".values"));
            s.points.reserve(values.size());
            for (std::size_t k = 0; k < values.size(); ++k) {
                const QString at = path + QStringLiteral(".values[%1]").arg(k);
                s.points.push_back(pointAt(values[k], at));
                if (k > 0 && s.points[k].timeMs <= s.points[k - 1].timeMs)
                    bad(at, QStringLiteral("time does not increase"));
            }
        } else {
            if (item.contains("values"))
                bad(path, QStringLiteral("\"values\" in a vector (resultType says vector, the series is a matrix's)"));
            s.points.push_back(pointAt(member(item, "value", path), path + QStringLiteral(".value")));
        }
        out.series.push_back(std::move(s));
    }
}

// The envelope every API answer shares: status, data or errorType/error, warnings.
// Returns the parsed document when the status is success; fills out's outcome otherwise.
template<class Answer> bool decodeEnvelope(int httpStatus, std::string_view body, Answer &out, Json &doc)
{
    out.httpStatus = httpStatus;
    try {
        doc = Json::parse(body.begin(), body.end());
    } catch (const Json::parse_error &e) {
        const std::string head(body.substr(0, std::min<std::size_t>(body.size(), 40)));
        const QString what = body.empty()
            ? QStringLiteral("empty answer")
            : QStringLiteral("not JSON at byte %1 (answer begins \"%2\")")
                  .arg(e.byte)
                  .arg(QString::fromUtf8(head.data(), qsizetype(head.size())).simplified());
        if (httpStatus != 200 && httpStatus != 0) {
            out.outcome = Outcome::Http;
            out.error = QStringLiteral("HTTP %1: %2").arg(httpStatus).arg(what);
        } else {
            out.outcome = Outcome::Malformed;
            out.error = what;
        }
        return false;
    }
    try {
        objectAt(doc, QStringLiteral("answer"));
        const std::string status = stringAt(member(doc, "status", QStringLiteral("answer")), QStringLiteral("status"));
        if (status == "error") {
            out.outcome = Outcome::ApiError;
            const auto type = doc.find("errorType");
            const auto error = doc.find("error");
            out.errorType = type != doc.end() && type->is_string() ? q(type->get<std::string>()) : QString();
            const QString message = error != doc.end() && error->is_string() ? q(error->get<std::string>())
                                                                             : QStringLiteral("(no error message)");
            out.error = out.errorType.isEmpty() ? message : out.errorType + QStringLiteral(": ") + message;
            if (httpStatus != 200 && httpStatus != 0)
                out.error = QStringLiteral("HTTP %1, %2").arg(httpStatus).arg(out.error);
            return false;
        }
        if (status != "success")
            bad(QStringLiteral("status"),
                QStringLiteral("expected \"success\" or \"error\", found \"%1\"").arg(q(status)));
        if (httpStatus != 200 && httpStatus != 0)
            bad(QStringLiteral("answer"), QStringLiteral("status success with HTTP %1").arg(httpStatus));
    } catch (const Bad &b) {
        out.outcome = Outcome::Malformed;
        out.error = b.message;
        return false;
    }
    return true;
}

// An answer of the kind `Answer`: the envelope, then `decodeBody(doc, out)`; a Bad on the way makes
// it Malformed, emptied by `reset`.
template<class Answer, class DecodeBody, class Reset>
Answer decodeAnswer(int httpStatus, std::string_view body, DecodeBody decodeBody, Reset reset)
{
    Answer out;
    Json doc;
    if (!decodeEnvelope(httpStatus, body, out, doc))
        return out;
    try {
        decodeBody(doc, out);
        out.outcome = Outcome::Ok;
    } catch (const Bad &b) {
        out.outcome = Outcome::Malformed;
        out.error = b.message;
        reset(out);
    }
    return out;
}

QStringList warningsOf(const Json &doc)
{
    QStringList out;
    const auto it = doc.find("warnings");
    if (it == doc.end())
        return out;
    arrayAt(*it, QStringLiteral("warnings"));
    for (std::size_t i = 0; i < it->size(); ++i)
        out.append(q(stringAt((*it)[i], QStringLiteral("warnings[%1]").arg(i))));
    return out;
}

std::int64_t timeMsOf(const std::string &iso)
{
    // "2026-12-01T18:50:01.123456789Z" (Go writes nanoseconds; Qt reads at most milliseconds);
    // "0001-01-01T00:00:00Z" for a target not scraped yet.
    QString text = QString::fromStdString(iso);
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        qsizetype end = dot + 1;
        while (end < text.size() && text.at(end).isDigit())
            ++end;
        text = text.left(std::min(end, dot + 4)) + text.mid(end);
    }
    const QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    return t.isValid() && t.toMSecsSinceEpoch() > 0 ? t.toMSecsSinceEpoch() : 0;
}

} // namespace

std::string_view PromSeries::label(std::string_view name) const
{
    for (const auto &l : labels) {
        if (l.first == name)
            return l.second;
    }
    return {};
}

std::string_view PromTarget::label(std::string_view name) const
{
    for (const auto &l : labels) {
        if (l.first == name)
            return l.second;
    }
    return {};
}

bool parsePromApiValue(std::string_view text, double &out)
{
    // Prometheus writes Go's strconv.FormatFloat(v, 'f', -1, 64) and "NaN", "+Inf", "-Inf".
    if (text == "NaN") {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (text == "+Inf" || text == "Inf") {
        out = std::numeric_limits<double>::infinity();
        return true;
    }
    if (text == "-Inf") {
        out = -std::numeric_limits<double>::infinity();
        return true;
    }
    return !text.empty() && PromParser::parseValue(text, out) && std::isfinite(out);
}

std::int64_t parsePromDurationMs(std::string_view text)
{
    // Units as in Prometheus' model.ParseDuration: y w d h m s ms, in this order.
    static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
        { "y", 365LL * 24 * 3600 * 1000 },
        { "w", 7LL * 24 * 3600 * 1000 },
        { "d", 24LL * 3600 * 1000 },
        { "h", 3600LL * 1000 },
        { "ms", 1 },
        { "m", 60LL * 1000 },
        { "s", 1000 },
    };
    std::int64_t total = 0;
    const char *p = text.data();
    const char *end = p + text.size();
    if (p == end)
        return 0;
    while (p < end) {
        std::int64_t n = 0;
        const auto [next, ec] = std::from_chars(p, end, n);
        if (ec != std::errc() || next == end || n < 0)
            return 0;
        p = next;
        std::int64_t unit = 0;
        for (const auto &[name, ms] : kUnits) {
            if (std::string_view(p, std::size_t(end - p)).substr(0, name.size()) == name) {
                // "m" must not swallow the "m" of "ms"
                if (name == "m" && end - p >= 2 && p[1] == 's')
                    continue;
                unit = ms;
                p += name.size();
                break;
            }
        }
        if (unit == 0)
            return 0;
        total += n * unit;
    }
    return total;
}

PromApiAnswer decodePromQueryAnswer(int httpStatus, std::string_view body)
{
    return decodeAnswer<PromApiAnswer>(
        httpStatus, body,
        [](const Json &doc, PromApiAnswer &out) {
            out.warnings = warningsOf(doc);
            decodeData(member(doc, "data", QStringLiteral("answer")), out);
        },
        [](PromApiAnswer &out) {
            out.series.clear();
            out.resultType = PromResultType::None;
        });
}

PromTargetsAnswer decodePromTargetsAnswer(int httpStatus, std::string_view body)
{
    return decodeAnswer<PromTargetsAnswer>(
        httpStatus, body,
        [](const Json &doc, PromTargetsAnswer &out) {
            const Json &data = objectAt(member(doc, "data", QStringLiteral("answer")), QStringLiteral("data"));
            const Json &active
                = arrayAt(member(data, "activeTargets", QStringLiteral("data")), QStringLiteral("data.activeTargets"));
            for (std::size_t i = 0; i < active.size(); ++i) {
                const QString path = QStringLiteral("data.activeTargets[%1]").arg(i);
                const Json &t = objectAt(active[i], path);
                PromTarget target;
                target.labels = labelsAt(member(t, "labels", path), path + QStringLiteral(".labels"));
                target.health = stringAt(member(t, "health", path), path + QStringLiteral(".health"));
                if (const auto it = t.find("scrapeUrl"); it != t.end())
                    target.scrapeUrl = stringAt(*it, path + QStringLiteral(".scrapeUrl"));
                if (const auto it = t.find("lastError"); it != t.end())
                    target.lastError = stringAt(*it, path + QStringLiteral(".lastError"));
                if (const auto it = t.find("lastScrape"); it != t.end())
                    target.lastScrapeMs = timeMsOf(stringAt(*it, path + QStringLiteral(".lastScrape")));
                if (const auto it = t.find("scrapeInterval"); it != t.end())
                    target.scrapeIntervalMs
                        = parsePromDurationMs(stringAt(*it, path + QStringLiteral(".scrapeInterval")));
                out.targets.push_back(std::move(target));
            }
        },
        [](PromTargetsAnswer &out) { out.targets.clear(); });
}

} // namespace pd
