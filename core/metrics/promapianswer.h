// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The answers of Prometheus' HTTP API (/api/v1/query, /api/v1/query_range, /api/v1/targets), decoded
// into plain values. Pure C++ over the bytes of one answer (nlohmann::json), callable from any thread.
// A malformed answer is an error that names the place (JSON offset, or a path such as
// "data.result[3].values[17][1]") and what was found there; nothing of it is half-delivered.
namespace pd {

struct PromPoint {
    std::int64_t timeMs = 0; // the sample's own timestamp (a raw range selector) or the evaluation step
    double value = 0; // "NaN", "+Inf", "-Inf" decoded
};

struct PromSeries {
    std::vector<std::pair<std::string, std::string>> labels; // as given, __name__ included when present
    std::vector<PromPoint> points; // vector: one point; matrix: ascending time

    // The value of label `name`; empty when absent.
    std::string_view label(std::string_view name) const;
};

enum class PromResultType : std::uint8_t { None, Vector, Matrix, Scalar, String };

struct PromApiAnswer {
    enum class Outcome : std::uint8_t {
        Ok, // status success, the data decoded
        ApiError, // status error: errorType and error from Prometheus
        Malformed, // not JSON, or JSON of another shape: `error` says where and what
        Http, // an HTTP status other than 200 without a Prometheus error body
    };
    Outcome outcome = Outcome::Malformed;
    int httpStatus = 0;
    QString errorType; // Prometheus' errorType ("bad_data", "timeout", "execution", ...) on ApiError
    QString error; // for the operator; empty when Ok
    QStringList warnings;
    PromResultType resultType = PromResultType::None;
    std::vector<PromSeries> series; // vector and matrix results; a scalar is one series without labels
    bool ok() const { return outcome == Outcome::Ok; }
};

// Decodes a /api/v1/query or /api/v1/query_range answer. httpStatus is the HTTP status of the answer
// (Prometheus answers errors with 400, 422, 503 and an error body; those are ApiError).
PromApiAnswer decodePromQueryAnswer(int httpStatus, std::string_view body);

// One scrape target of /api/v1/targets (active targets only).
struct PromTarget {
    std::vector<std::pair<std::string, std::string>> labels; // after relabelling (instance, job, ...)
    std::string scrapeUrl;
    std::string health; // "up", "down", "unknown"
    std::string lastError; // Prometheus' own words for the last failed scrape
    std::int64_t lastScrapeMs = 0;
    std::int64_t scrapeIntervalMs = 0; // 0 when the server does not say (older than 2.35)

    std::string_view label(std::string_view name) const;
};

struct PromTargetsAnswer {
    PromApiAnswer::Outcome outcome = PromApiAnswer::Outcome::Malformed;
    int httpStatus = 0;
    QString errorType;
    QString error;
    std::vector<PromTarget> targets;
    bool ok() const { return outcome == PromApiAnswer::Outcome::Ok; }
};

PromTargetsAnswer decodePromTargetsAnswer(int httpStatus, std::string_view body);

// A Prometheus sample value as the API writes it: a decimal string, "NaN", "+Inf", "-Inf".
bool parsePromApiValue(std::string_view text, double &out);
// A Prometheus duration as in "1s", "15s", "1m30s", "500ms"; 0 when not one.
std::int64_t parsePromDurationMs(std::string_view text);

} // namespace pd
