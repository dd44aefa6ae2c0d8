// SPDX-License-Identifier: MIT
#include "ops/canaryprobe.h"

#include "ops/warmuprun.h"

#include <QDateTime>

namespace pd {

CanaryProbe::CanaryProbe(QObject *parent)
    : QObject(parent)
{
    m_timer.setInterval(m_options.intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &CanaryProbe::tick);
}

CanaryProbe::~CanaryProbe()
{
    delete m_run.data();
}

void CanaryProbe::setEndpoint(const ProxyEndpoint &endpoint)
{
    if (endpoint.base != m_endpoint.base) {
        m_history.clear();
        m_model.clear();
    }
    m_endpoint = endpoint;
}

void CanaryProbe::setOptions(const CanaryOptions &options)
{
    m_options = options;
    m_timer.setInterval(std::max(500, options.intervalMs));
}

void CanaryProbe::start()
{
    if (m_timer.isActive())
        return;
    m_timer.start();
    QTimer::singleShot(0, this, &CanaryProbe::tick);
}

void CanaryProbe::stop()
{
    m_timer.stop();
    if (m_run) {
        m_run->disconnect(this);
        delete m_run.data();
    }
}

CanaryStatus CanaryProbe::status() const
{
    CanaryStatus s = m_history.status(12);
    s.enabled = m_timer.isActive();
    return s;
}

void CanaryProbe::tick()
{
    if (!m_timer.isActive() || m_run || !m_endpoint.base.isValid())
        return;
    WarmUpOptions o;
    o.count = 1;
    o.concurrency = 1;
    o.promptTokens = m_options.promptTokens;
    o.maxTokens = m_options.maxTokens;
    o.stream = true;
    o.model = m_model;
    o.fallbackModel = m_options.fallbackModel;
    o.requestTimeoutMs = m_options.timeoutMs;
    o.seed = ++m_sequence;
    o.trafficTag = QString::fromLatin1(kTrafficTag);
    auto *run = new WarmUpRun(m_endpoint, o, nullptr, this); // canary traffic is not an operator action
    m_run = run;
    const std::int64_t sentMs = QDateTime::currentMSecsSinceEpoch();
    connect(run, &WarmUpRun::finished, this, [this, run, sentMs](const WarmUpResult &result) {
        run->deleteLater();
        m_run = nullptr;
        if (result.cancelled)
            return;
        CanarySample s;
        s.atMs = sentMs;
        if (!result.samples.isEmpty()) {
            const WarmUpSample &w = result.samples.first();
            s.outcome = w.outcome;
            s.httpStatus = w.httpStatus;
            s.detail = w.detail;
            if (w.outcome == WarmUpOutcome::Ok) {
                s.e2eMs = w.e2eMs;
                s.ttftMs = w.ttftMs;
            }
        } else {
            // Nothing was sent: no model to ask for (the proxy named none and the profile neither).
            s.outcome = WarmUpOutcome::ConnectionFailed;
            s.detail = result.error;
        }
        if (s.ok())
            m_model = result.model;
        else
            m_model.clear(); // a proxy restarted with another model answers 404 until asked again
        m_history.append(s);
        Q_EMIT sampled(s);
    });
    run->start();
}

} // namespace pd
