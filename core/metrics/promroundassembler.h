// SPDX-License-Identifier: MIT
#pragma once

#include "pollround.h"
#include "promapianswer.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

// Turns a Prometheus server's raw samples (a matrix from a range selector) back into what the
// console's own poller would have handed the series store: one EngineMetrics per scrape of each
// engine, taken at the scrape's own timestamp, grouped into poll rounds. Pure C++ and Qt Core
// value types, callable from any thread.
namespace pd {

// Which engine a series belongs to: the value of one label (`instance` unless configured), matched
// against the profile's engines as "host:port" (host case-insensitive, IPv6 in brackets as
// Prometheus writes it). A value without a port matches the only engine on that host, if there is one.
class PromEngineMap final {
public:
    PromEngineMap() = default;
    // One "host:port" per engine, in Profile::engines() order.
    explicit PromEngineMap(const std::vector<std::string> &hostPorts);

    static std::string key(std::string_view host, int port);
    int engineOf(std::string_view labelValue) const; // -1: not an engine of the profile
    int engineCount() const { return int(m_keys.size()); }
    const std::string &keyOf(int engine) const { return m_keys[std::size_t(engine)]; }

private:
    std::vector<std::string> m_keys;
    std::unordered_map<std::string, int> m_byKey;
    std::unordered_map<std::string, int> m_byHost; // -2: several engines on the host
};

// One scrape of one engine as Prometheus stored it.
struct PromScrape {
    int engine = -1;
    std::int64_t timeMs = 0;
    EnginePoll poll; // metrics for a good scrape, error for up == 0 or a scrape without vLLM samples
};

class PromRoundAssembler final {
public:
    PromRoundAssembler(PromEngineMap map, std::string engineLabel, int slotMs = 1000);

    // The reason Prometheus gives for a target that is down (from /api/v1/targets), per engine.
    void setDownReason(int engine, const QString &reason);

    struct Result {
        std::vector<PollRound> rounds; // ascending time; every engine at most once per round
        std::vector<PromScrape> latest; // the newest scrape of each engine that had one
        std::vector<std::string> unmapped; // label values that are no engine of the profile
        int unlabelledSeries = 0; // series without the engine label
        std::size_t samples = 0; // samples read
        std::size_t scrapes = 0;
    };

    // Reads a matrix of raw samples. Samples at or before an engine's last assembled scrape are
    // skipped (overlapping windows), and so are samples after `horizonMs` (a scrape Prometheus may
    // still be appending to); those come with the next answer.
    Result assemble(const PromApiAnswer &answer, std::int64_t horizonMs);

    std::int64_t lastScrapeMs(int engine) const { return m_last[std::size_t(engine)]; }
    // Forgets what was assembled (a reconnect).
    void reset();

    const PromEngineMap &map() const { return m_map; }

private:
    PromEngineMap m_map;
    std::string m_label;
    int m_slotMs;
    std::vector<std::int64_t> m_last;
    std::vector<QString> m_downReasons;
};

// The PollError kind Prometheus' lastError text describes ("connection refused", "context deadline
// exceeded", "server returned HTTP status 503", a parse error, ...).
PollError::Kind pollErrorKindOf(const QString &prometheusError);

// The error of an engine whose samples show neither generation's names.
QString unknownGenerationMessage();

} // namespace pd
