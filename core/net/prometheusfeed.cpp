// SPDX-License-Identifier: MIT
#include "net/prometheusfeed.h"

#include <QDateTime>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

constexpr int kMaxRetryMs = 60000;
constexpr int kMaxRefreshWindowS = 600; // after a longer outage the gap stays a gap
constexpr int kSeriesPerEngine = 120; // raw series one engine contributes (vLLM 0.9.1's bucket lists)

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

PollStatus pollStatusOf(PollError::Kind kind)
{
    switch (kind) {
    case PollError::Kind::Timeout:
        return PollStatus::Timeout;
    case PollError::Kind::Refused:
        return PollStatus::Refused;
    case PollError::Kind::Http:
        return PollStatus::HttpError;
    case PollError::Kind::Parse:
        return PollStatus::Malformed;
    case PollError::Kind::Other:
        break;
    }
    return PollStatus::Failed;
}

} // namespace

PrometheusFeed::PrometheusFeed(QObject *parent)
    : PrometheusOutlet(parent)
    , m_client(new PrometheusClient(this))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
}

PrometheusFeed::~PrometheusFeed() = default;

void PrometheusFeed::setConfig(const PrometheusSourceConfig &config)
{
    m_config = config;
    if (m_running)
        restart();
}

void PrometheusFeed::setEngines(const std::vector<std::string> &hostPorts, quint64 generation)
{
    m_hostPorts = hostPorts;
    m_generation = generation;
    if (m_running)
        restart();
}

void PrometheusFeed::start()
{
    m_running = true;
    restart();
}

void PrometheusFeed::stop()
{
    m_running = false;
    ++m_run;
    m_timer->stop();
    m_timer->disconnect(this);
    m_client->abortAll();
    m_status.phase = PrometheusStatus::Phase::Idle;
    announce();
}

void PrometheusFeed::restart()
{
    ++m_run;
    m_timer->stop();
    m_timer->disconnect(this);
    m_client->setEndpoint(m_config.endpoint);
    m_assembler = std::make_unique<PromRoundAssembler>(PromEngineMap(m_hostPorts), m_config.engineLabel);
    m_labelValues.assign(m_hostPorts.size(), std::string());
    m_generations.assign(m_hostPorts.size(), VllmGeneration::Unknown);
    m_targetUp.assign(m_hostPorts.size(), false);
    m_status = PrometheusStatus {};
    m_status.phase = PrometheusStatus::Phase::Connecting;
    m_status.scrapeIntervalMs = m_config.fallbackScrapeIntervalMs;
    m_chunk = PromApiAnswer {};
    announce();
    if (m_hostPorts.empty())
        return;
    readTargets(true);
}

void PrometheusFeed::fail(const QString &error)
{
    m_status.phase = PrometheusStatus::Phase::Failed;
    m_status.error = error;
    announce();
    m_retryMs = m_retryMs == 0 ? m_config.retryMs : std::min(kMaxRetryMs, m_retryMs * 2);
    const quint64 run = ++m_run;
    m_timer->disconnect(this);
    connect(m_timer, &QTimer::timeout, this, [this, run] {
        if (run == m_run && m_running)
            restart();
    });
    m_timer->start(m_retryMs);
}

void PrometheusFeed::readTargets(bool thenDetect)
{
    const quint64 run = m_run;
    m_sinceTargets.start();
    m_client->targets([this, run, thenDetect](const PromTargetsAnswer &answer) {
        if (run != m_run)
            return;
        if (answer.ok()) {
            std::int64_t interval = 0;
            for (const PromTarget &t : answer.targets) {
                const int e = m_assembler->map().engineOf(t.label(m_config.engineLabel));
                if (e < 0)
                    continue;
                if (t.scrapeIntervalMs > 0)
                    interval = interval == 0 ? t.scrapeIntervalMs : std::min(interval, t.scrapeIntervalMs);
                m_assembler->setDownReason(e, t.health == "down" ? QString::fromStdString(t.lastError) : QString());
            }
            if (interval > 0)
                m_status.scrapeIntervalMs = int(interval);
        } else if (!thenDetect) {
            m_status.warnings = { answer.error };
        }
        // A server behind a proxy that only lets queries through still works: the interval falls
        // back to the configured one, down targets say "up == 0" without Prometheus' reason.
        if (thenDetect)
            detect(true);
    });
}

void PrometheusFeed::detect(bool thenBackfill)
{
    const quint64 run = m_run;
    m_sinceDetect.start();
    m_client->query(detectionQuery(m_config.engineLabel, m_config.extraMatchers),
        [this, run, thenBackfill](const PromApiAnswer &answer, qint64) {
            if (run != m_run)
                return;
            if (!answer.ok()) {
                if (thenBackfill)
                    fail(answer.error);
                else
                    m_status.error = answer.error;
                return;
            }
            if (answer.resultType != PromResultType::Vector) {
                const QString error
                    = tr("the generation probe answered a %1, not a vector")
                          .arg(answer.resultType == PromResultType::Matrix ? QStringLiteral("matrix")
                                                                           : QStringLiteral("scalar or string"));
                if (thenBackfill)
                    fail(error);
                return;
            }
            int unlabelled = 0;
            const std::vector<PromTargetProbe> probes = readDetection(answer, m_config.engineLabel, &unlabelled);
            m_status.unmapped.clear();
            m_status.unknownGeneration.clear();
            m_status.notTargets.clear();
            m_status.v091Engines = m_status.currentEngines = 0;
            std::fill(m_labelValues.begin(), m_labelValues.end(), std::string());
            std::fill(m_targetUp.begin(), m_targetUp.end(), false);
            for (const PromTargetProbe &p : probes) {
                const int e = m_assembler->map().engineOf(p.labelValue);
                if (e < 0) {
                    // Other jobs' targets (node exporters, ...) are not this console's business; a vLLM
                    // engine that is not in the profile is worth saying.
                    if (p.looksLikeVllm())
                        m_status.unmapped.append(QString::fromStdString(p.labelValue));
                    continue;
                }
                m_labelValues[std::size_t(e)] = p.labelValue;
                m_generations[std::size_t(e)] = p.generation();
                m_targetUp[std::size_t(e)] = p.up == 1;
            }
            bool v091 = false;
            bool current = false;
            int mapped = 0;
            for (std::size_t e = 0; e < m_labelValues.size(); ++e) {
                if (m_labelValues[e].empty()) {
                    m_status.notTargets.append(int(e));
                    continue;
                }
                ++mapped;
                switch (m_generations[e]) {
                case VllmGeneration::V091:
                    v091 = true;
                    ++m_status.v091Engines;
                    break;
                case VllmGeneration::Current:
                    current = true;
                    ++m_status.currentEngines;
                    break;
                case VllmGeneration::Unknown:
                    if (m_targetUp[e]) // a target that is down has not shown its names yet
                        m_status.unknownGeneration.append(int(e));
                    break;
                }
            }
            if (unlabelled > 0)
                m_status.unmapped.append(tr("%n series without the label \"%1\"", nullptr, unlabelled)
                                             .arg(QString::fromStdString(m_config.engineLabel)));
            if (mapped == 0) {
                QStringList seen = m_status.unmapped.mid(0, 5);
                fail(tr(
                    "Prometheus scrapes none of the profile's %n engine(s) (matched by the label \"%1\" as host:port); "
                    "it has: %2",
                    nullptr, int(m_hostPorts.size()))
                         .arg(QString::fromStdString(m_config.engineLabel),
                             seen.isEmpty() ? tr("no vLLM targets at all") : seen.join(QStringLiteral(", "))));
                return;
            }
            // Unknown generations still get both name sets: an engine that comes up later is read at once.
            if (!v091 && !current)
                v091 = current = true;
            m_names = fetchedNames(v091, current);
            announce();
            if (!thenBackfill)
                return;
            m_retryMs = 0;
            const int pointsPerSecond = std::max(1, 1000 / std::max(1, m_status.scrapeIntervalMs));
            const std::int64_t budgetSeconds
                = m_config.chunkSampleBudget / (std::int64_t(mapped) * kSeriesPerEngine * pointsPerSecond);
            m_chunkMs = std::clamp<std::int64_t>(budgetSeconds, 60, std::max(60, m_config.maxChunkSeconds)) * 1000;
            m_backfillTo = nowMs() - m_config.settleMs;
            m_backfillFrom = m_backfillTo - std::int64_t(std::max(0, m_config.backfillSeconds)) * 1000;
            m_chunkEnd = std::min(m_backfillTo, m_backfillFrom + m_chunkMs);
            m_groupNext = 0;
            m_status.phase = PrometheusStatus::Phase::Backfilling;
            m_status.backfillChunks
                = m_config.backfillSeconds > 0 ? int((m_backfillTo - m_backfillFrom + m_chunkMs - 1) / m_chunkMs) : 0;
            m_status.backfillChunksDone = 0;
            m_backfillClock.start();
            announce();
            backfillNext();
        });
}

std::vector<std::string> PrometheusFeed::mappedValues(int from, int count) const
{
    std::vector<std::string> values;
    int seen = 0;
    for (const std::string &v : m_labelValues) {
        if (v.empty())
            continue;
        if (seen >= from && seen < from + count)
            values.push_back(v);
        ++seen;
    }
    return values;
}

void PrometheusFeed::backfillNext()
{
    if (m_config.backfillSeconds <= 0 || m_chunkEnd <= m_backfillFrom) {
        m_status.phase = PrometheusStatus::Phase::Live;
        m_status.backfillMs = m_backfillClock.elapsed();
        announce();
        refresh();
        return;
    }
    const std::vector<std::string> values = mappedValues(m_groupNext, m_config.chunkEngines);
    const quint64 run = m_run;
    const std::int64_t chunkStart = m_chunkEnd - m_chunkMs;
    const int windowS = int((m_chunkEnd - std::max(chunkStart, m_backfillFrom) + 999) / 1000);
    m_client->query(
        rawSamplesQuery(m_names, m_config.engineLabel, values, m_config.extraMatchers, windowS),
        [this, run, count = int(values.size())](const PromApiAnswer &answer, qint64 bytes) {
            if (run != m_run)
                return;
            if (!answer.ok()) {
                fail(tr("backfill: %1").arg(answer.error));
                return;
            }
            if (answer.resultType != PromResultType::Matrix) {
                fail(tr("backfill: a range selector answered a result that is not a matrix"));
                return;
            }
            m_status.backfillBytes += bytes;
            m_status.warnings = answer.warnings;
            m_chunk.series.insert(m_chunk.series.end(), std::make_move_iterator(answer.series.begin()),
                std::make_move_iterator(answer.series.end()));
            m_groupNext += m_config.chunkEngines;
            if (count == m_config.chunkEngines && !mappedValues(m_groupNext, 1).empty()) {
                backfillNext();
                return;
            }
            // Every engine group of this time chunk is in: assemble it in one piece (rounds span engines).
            PromRoundAssembler::Result r = m_assembler->assemble(m_chunk, m_chunkEnd);
            m_chunk = PromApiAnswer {};
            PrometheusDelivery d;
            d.backfill = true;
            d.rounds = std::move(r.rounds);
            deliver(std::move(d));
            ++m_status.backfillChunksDone;
            m_groupNext = 0;
            if (m_chunkEnd >= m_backfillTo) {
                m_chunkEnd = m_backfillFrom; // done
            } else {
                m_chunkEnd = std::min(m_backfillTo, m_chunkEnd + m_chunkMs);
            }
            announce();
            backfillNext();
        },
        m_chunkEnd);
}

int PrometheusFeed::refreshIntervalMs() const
{
    const int interval = m_config.refreshIntervalMs > 0 ? m_config.refreshIntervalMs : m_status.scrapeIntervalMs;
    return std::max(1000, interval);
}

void PrometheusFeed::scheduleRefresh()
{
    const quint64 run = m_run;
    m_timer->disconnect(this);
    connect(m_timer, &QTimer::timeout, this, [this, run] {
        if (run == m_run && m_running)
            refresh();
    });
    m_timer->start(refreshIntervalMs());
}

std::vector<int> PrometheusFeed::silentEngines(std::int64_t now)
{
    std::vector<int> silent;
    const std::int64_t allowed = 3LL * m_status.scrapeIntervalMs + m_config.settleMs + 1000;
    for (std::size_t e = 0; e < m_labelValues.size(); ++e) {
        const std::int64_t last = m_assembler->lastScrapeMs(int(e));
        if (m_labelValues[e].empty() || (last > 0 && now - last > allowed)
            || (last == 0 && m_sinceDetect.isValid() && m_sinceDetect.elapsed() > allowed))
            silent.push_back(int(e));
    }
    return silent;
}

PollBatch PrometheusFeed::latestBatch(const std::vector<PromScrape> &latest, const std::vector<int> &silent) const
{
    PollBatch batch;
    batch.generation = m_generation;
    batch.roundAtMs = nowMs();
    for (const PromScrape &s : latest) {
        PollOutcome o;
        o.engine = s.engine;
        o.finishedAtMs = s.timeMs;
        if (s.poll.metrics) {
            o.status = PollStatus::Ok;
            o.httpStatus = 200;
            o.metrics = s.poll.metrics;
        } else if (s.poll.error) {
            o.status = pollStatusOf(s.poll.error->kind);
            o.error = s.poll.error->message;
        }
        batch.outcomes.append(o);
    }
    for (const int e : silent) {
        PollOutcome o;
        o.engine = e;
        o.status = PollStatus::Failed;
        o.finishedAtMs = batch.roundAtMs;
        o.error = m_labelValues[std::size_t(e)].empty()
            ? tr("not a Prometheus target (no series with %1=\"%2\")")
                  .arg(
                      QString::fromStdString(m_config.engineLabel), QString::fromStdString(m_assembler->map().keyOf(e)))
            : tr("Prometheus has not scraped it for %1 s").arg((batch.roundAtMs - m_assembler->lastScrapeMs(e)) / 1000);
        batch.outcomes.append(o);
    }
    return batch;
}

void PrometheusFeed::refresh()
{
    const std::int64_t now = nowMs();
    std::int64_t oldest = now;
    for (std::size_t e = 0; e < m_labelValues.size(); ++e) {
        if (m_labelValues[e].empty())
            continue;
        const std::int64_t last = m_assembler->lastScrapeMs(int(e));
        oldest = std::min<std::int64_t>(oldest, last > 0 ? last : now - 2 * std::int64_t(refreshIntervalMs()));
    }
    const int windowS = std::clamp(int((now - oldest + 999) / 1000) + 2, 3, kMaxRefreshWindowS);
    const quint64 run = m_run;
    QElapsedTimer clock;
    clock.start();
    m_client->query(rawSamplesQuery(m_names, m_config.engineLabel, mappedValues(0, int(m_labelValues.size())),
                        m_config.extraMatchers, windowS),
        [this, run, now, clock](const PromApiAnswer &answer, qint64 bytes) {
            if (run != m_run)
                return;
            if (!answer.ok() || answer.resultType != PromResultType::Matrix) {
                m_status.error = answer.ok() ? tr("refresh: a range selector answered a result that is not a matrix")
                                             : tr("refresh: %1").arg(answer.error);
                announce();
                scheduleRefresh();
                return;
            }
            m_status.error.clear();
            m_status.warnings = answer.warnings;
            const std::int64_t horizon = now - m_config.settleMs;
            PromRoundAssembler::Result r = m_assembler->assemble(answer, horizon);
            const std::vector<int> silent = silentEngines(now);
            PrometheusDelivery d;
            d.rounds = std::move(r.rounds);
            if (!silent.empty()) {
                PollRound errors;
                errors.timeMs = std::max(horizon, d.rounds.empty() ? horizon : d.rounds.back().timeMs);
                errors.engines.resize(m_labelValues.size());
                const PollBatch b = latestBatch({}, silent);
                for (const PollOutcome &o : b.outcomes)
                    errors.engines[std::size_t(o.engine)].error = PollError { PollError::Kind::Other, o.error };
                d.rounds.push_back(std::move(errors));
            }
            d.latest = latestBatch(r.latest, silent);
            bool anyDown = false;
            for (const PromScrape &s : r.latest)
                anyDown |= s.poll.error && s.poll.error->kind != PollError::Kind::Parse;
            deliver(std::move(d));
            m_status.lastRefreshMs = clock.elapsed();
            m_status.lastRefreshBytes = bytes;
            ++m_status.refreshes;
            if (!r.unmapped.empty()) {
                for (const std::string &v : r.unmapped) {
                    const QString value = QString::fromStdString(v);
                    if (!m_status.unmapped.contains(value))
                        m_status.unmapped.append(value);
                }
            }
            announce();
            if (anyDown && m_sinceTargets.elapsed() > m_config.targetsEveryMs)
                readTargets(false);
            if (m_sinceDetect.elapsed() > m_config.detectEveryMs)
                detect(false);
            scheduleRefresh();
        });
}

void PrometheusFeed::deliver(PrometheusDelivery &&delivery)
{
    delivery.generation = m_generation;
    delivery.scrapeIntervalMs = m_status.scrapeIntervalMs;
    Q_EMIT delivered(delivery);
}

void PrometheusFeed::announce()
{
    Q_EMIT statusChanged(m_status);
}

} // namespace pd
