// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/canaryhistory.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

// The canary: one tiny streamed completion through the proxy every few seconds, classified as the
// warm-up classifies (an empty 200, a stream without [DONE], an error payload, a timeout, a refused
// connection), kept in a CanaryHistory for the charts and the Problems list. It measures what
// clients get, which the proxy does not report. Its traffic is marked ("pdconsole-canary": the
// OpenAI user field, the X-PD-Traffic header, the prompt's first word) so no one takes it for users.
//
// One request at a time: a tick that finds the previous one still in flight sends nothing (a hung
// cluster is one timeout per interval, not a pile of requests). The model is asked of the proxy's
// /v1/models once and kept; a failure asks again next time.
//
// Threads: lives on the GUI thread (asynchronous QNetworkAccessManager, one request per interval).
namespace pd {

class WarmUpRun;

struct CanaryOptions {
    int intervalMs = 5000;
    int timeoutMs = 10000; // the whole answer
    int promptTokens = 16;
    int maxTokens = 4;
    QString fallbackModel; // the profile's served model name, when the proxy names none
};

class CanaryProbe final : public QObject {
    Q_OBJECT
public:
    static constexpr const char *kTrafficTag = "pdconsole-canary";

    explicit CanaryProbe(QObject *parent = nullptr);
    ~CanaryProbe() override;

    // A different proxy: its history is not this one's. Takes effect on the next request.
    void setEndpoint(const ProxyEndpoint &endpoint);
    void setOptions(const CanaryOptions &options);
    const CanaryOptions &options() const { return m_options; }

    void start(); // the first request now, then one per interval
    void stop(); // aborts the request in flight (not recorded)
    bool isRunning() const { return m_timer.isActive(); }

    const CanaryHistory &history() const { return m_history; }
    // The verdict over the last minute at the default interval (12 samples).
    CanaryStatus status() const;

Q_SIGNALS:
    void sampled(const pd::CanarySample &sample);

private:
    void tick();

    ProxyEndpoint m_endpoint;
    CanaryOptions m_options;
    CanaryHistory m_history;
    QTimer m_timer;
    QPointer<WarmUpRun> m_run;
    QString m_model;
    quint64 m_sequence = 0;
};

} // namespace pd
