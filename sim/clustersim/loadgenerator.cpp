// SPDX-License-Identifier: MIT
#include "clustersim/loadgenerator.h"

#include "proxy/backendcall.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

namespace pd::sim {

namespace {

// Lognormal with the given mean and standard deviation, clipped.
int lognormal(std::mt19937_64 &random, double mean, double sd, int lo, int hi)
{
    const double sigma2 = std::log(1.0 + (sd * sd) / (mean * mean));
    const double mu = std::log(mean) - sigma2 / 2.0;
    std::lognormal_distribution<double> d(mu, std::sqrt(sigma2));
    return std::clamp(int(std::lround(d(random))), lo, hi);
}

} // namespace

LoadGenerator::LoadGenerator(QHostAddress proxyHost, quint16 proxyPort, QString model, int maxModelLen, quint64 seed,
                             QObject *parent)
    : QObject(parent)
    , m_host(std::move(proxyHost))
    , m_port(proxyPort)
    , m_model(std::move(model))
    , m_maxModelLen(maxModelLen)
    , m_random(seed)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &LoadGenerator::arrive);
}

void LoadGenerator::setRate(double requestsPerSecond)
{
    m_rate = std::max(0.0, requestsPerSecond);
    m_timer.stop();
    if (m_rate > 0)
        scheduleNext();
}

void LoadGenerator::setStreams(int n)
{
    m_streams = std::max(0, n);
    while (m_streamsLive < m_streams)
        send(true);
}

void LoadGenerator::streamEnded(bool failed)
{
    --m_streamsLive;
    // A client whose stream was taken away (fewer streams now) stops; the others go on at once, or after
    // a short pause when the proxy refused (a client does not hammer a proxy that is down).
    if (m_streamsLive < m_streams)
        QTimer::singleShot(failed ? 200 : 0, this, [this] {
            if (m_streamsLive < m_streams)
                send(true);
        });
}

void LoadGenerator::scheduleNext()
{
    std::exponential_distribution<double> gap(m_rate);
    m_timer.start(int(std::min(gap(m_random) * 1000.0, 3.6e6)));
}

void LoadGenerator::arrive()
{
    if (m_stats.inFlight >= m_maxInFlight)
        ++m_stats.skipped;
    else
        send();
    scheduleNext();
}

void LoadGenerator::send(bool stream)
{
    if (stream)
        ++m_streamsLive;
    const int promptTokens = lognormal(m_random, 3500, 1000, 256, std::min(7000, m_maxModelLen - 64));
    const int maxTokens = lognormal(m_random, 1100, 500, 32, std::max(32, m_maxModelLen - promptTokens - 1));
    // About 4 bytes per token; random letters so that prefix caching does not fold requests together.
    std::string prompt(std::size_t(promptTokens) * 4, ' ');
    std::uniform_int_distribution<int> letter('a', 'z');
    for (std::size_t i = 0; i < prompt.size(); ++i)
        prompt[i] = (i % 5 == 4) ? ' ' : char(letter(m_random));
    const nlohmann::json body{{"model", m_model.toStdString()}, {"prompt", prompt}, {"max_tokens", maxTokens},
                              {"stream", false}};
    // Through the simulator's one HTTP client (the proxy's calls to its engines use it too).
    auto *call = new BackendCall(m_host.toString(), m_port, "POST", "/v1/completions",
        { { "Content-Type", "application/json" } }, QByteArray::fromStdString(body.dump()), this);
    ++m_stats.sent;
    ++m_stats.inFlight;
    // Chunked or not, a decoded body without any JSON object is the proxy's empty 200.
    auto sawObject = std::make_shared<bool>(false);
    connect(call, &BackendCall::bodyRead, this,
        [sawObject](const QByteArray &data) { *sawObject = *sawObject || data.contains('{'); });
    connect(call, &BackendCall::finished, this, [this, call, sawObject, stream] {
        --m_stats.inFlight;
        if (stream)
            streamEnded(call->status() != 200);
        if (call->status() != 200)
            ++m_stats.failed;
        else if (*sawObject)
            ++m_stats.succeeded;
        else
            ++m_stats.emptyOk;
        call->deleteLater();
    });
    connect(call, &BackendCall::failed, this, [this, call, stream](const QString &) {
        --m_stats.inFlight;
        if (stream)
            streamEnded(true);
        ++m_stats.failed;
        call->deleteLater();
    });
    call->start();
}

} // namespace pd::sim
