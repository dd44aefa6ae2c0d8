// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/pollround.h"
#include "metrics/promroundassembler.h"
#include "metrics/promvllmqueries.h"
#include "net/polltypes.h"
#include "net/prometheusclient.h"

#include <QElapsedTimer>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QTimer;

// The Prometheus source's work, on the thread it lives in (PrometheusSource gives it its own):
// find the targets and their metric generation, backfill the history by raw range selectors in
// chunks, then refresh every interval with the samples scraped since. What it hands over is what the
// console's own poller would have: poll rounds for the series store (docs/series-store.md) and the
// newest outcome per engine for the cluster store. docs/prometheus-source.md has the queries.
namespace pd {

struct PrometheusSourceConfig {
    PrometheusEndpoint endpoint;
    std::string engineLabel = "instance"; // the label whose value is an engine's host:port
    std::string extraMatchers; // added to every selector as is, e.g. job="vllm"
    int backfillSeconds = 3600; // history fetched on connect (the 1 s ring holds 1 h)
    int maxChunkSeconds = 600; // window of one backfill query
    std::int64_t chunkSampleBudget = 3'000'000; // samples one backfill chunk may hold (all engines)
    int chunkEngines = 32; // engines per backfill query
    int refreshIntervalMs = 0; // 0: Prometheus' scrape interval (at least 1 s)
    int settleMs = 300; // samples younger than this wait for the next refresh
    int detectEveryMs = 30000; // re-run the generation probe (new targets, upgrades)
    int targetsEveryMs = 5000; // re-read /api/v1/targets while a target is down
    int retryMs = 2000; // first retry after a failed connect (doubles up to 60 s)
    int fallbackScrapeIntervalMs = 1000; // when /api/v1/targets does not say
};

struct PrometheusStatus {
    enum class Phase : std::uint8_t { Idle, Connecting, Backfilling, Live, Failed };
    Phase phase = Phase::Idle;
    QString error; // why Failed (or the last failed refresh while Live)
    QStringList warnings; // Prometheus' own warnings of the last answer
    int scrapeIntervalMs = 0;
    QStringList unmapped; // label values Prometheus has that are no engine of the profile
    QList<int> notTargets; // engines Prometheus does not scrape
    QList<int> unknownGeneration; // engines without either generation's names
    int v091Engines = 0;
    int currentEngines = 0;
    int backfillChunksDone = 0;
    int backfillChunks = 0;
    qint64 backfillMs = 0; // wall time of the whole backfill
    qint64 backfillBytes = 0;
    qint64 lastRefreshMs = 0; // wall time of the last refresh (request + decode + assembly)
    qint64 lastRefreshBytes = 0;
    quint64 refreshes = 0;
};

// One hand-over: rounds in time order, and (live only) the newest outcome of each engine.
struct PrometheusDelivery {
    quint64 generation = 0; // the engine list it belongs to
    bool backfill = false;
    int scrapeIntervalMs = 1000; // what the series store's poll interval should be
    std::vector<PollRound> rounds;
    PollBatch latest;
};

// What the feed and the source that runs it offer alike: deliveries, and the status and its changes.
class PrometheusOutlet : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    const PrometheusStatus &status() const { return m_status; }

Q_SIGNALS:
    // Rounds for the series store, in time order; `latest` (live refreshes only) for the cluster store.
    void delivered(const pd::PrometheusDelivery &delivery);
    void statusChanged(const pd::PrometheusStatus &status);

protected:
    PrometheusStatus m_status;
};

class PrometheusFeed final : public PrometheusOutlet {
    Q_OBJECT
public:
    explicit PrometheusFeed(QObject *parent = nullptr);
    ~PrometheusFeed() override;

    void setConfig(const PrometheusSourceConfig &config);
    // One "host:port" per engine in Profile::engines() order; restarts from detection.
    void setEngines(const std::vector<std::string> &hostPorts, quint64 generation);
    void start();
    void stop();

private:
    void restart();
    void fail(const QString &error);
    void readTargets(bool thenDetect);
    void detect(bool thenBackfill);
    void backfillNext();
    void refresh();
    void scheduleRefresh();
    void announce();
    void deliver(PrometheusDelivery &&delivery);
    std::vector<std::string> mappedValues(int from, int count) const;
    PollBatch latestBatch(const std::vector<PromScrape> &latest, const std::vector<int> &silent) const;
    std::vector<int> silentEngines(std::int64_t nowMs);
    int refreshIntervalMs() const;

    PrometheusSourceConfig m_config;
    PrometheusClient *m_client;
    QTimer *m_timer;
    std::vector<std::string> m_hostPorts;
    quint64 m_generation = 0;
    quint64 m_run = 0; // bumped by restart(): callbacks of an older run are ignored
    bool m_running = false;
    std::unique_ptr<PromRoundAssembler> m_assembler;
    std::vector<std::string> m_labelValues; // per engine: its label value as Prometheus has it ("" none)
    std::vector<VllmGeneration> m_generations;
    std::vector<std::string> m_names;
    int m_retryMs = 0;
    // backfill
    std::int64_t m_backfillFrom = 0;
    std::int64_t m_backfillTo = 0;
    std::int64_t m_chunkMs = 0;
    std::int64_t m_chunkEnd = 0;
    int m_groupNext = 0;
    PromApiAnswer m_chunk; // the answers of the current time chunk, all engine groups
    QElapsedTimer m_backfillClock;
    QElapsedTimer m_sinceDetect;
    QElapsedTimer m_sinceTargets;
    std::vector<bool> m_targetUp; // per engine: its newest `up` at the last detection
};

} // namespace pd

Q_DECLARE_METATYPE(pd::PrometheusDelivery)
Q_DECLARE_METATYPE(pd::PrometheusStatus)
