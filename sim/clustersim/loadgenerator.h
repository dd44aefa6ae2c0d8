// SPDX-License-Identifier: MIT
#pragma once

#include <QHostAddress>
#include <QObject>
#include <QTimer>

#include <random>

// A bounded background client: Poisson arrivals of completions through the proxy, prompt and output
// lengths drawn from realistic-load.md §2.1 (lognormal 3,500 ± 1,000 in, 1,100 ± 500 out). One TCP
// connection per request (the proxy is one host: a pooled client would cap concurrency). Counts the
// proxy's silent failures too: 200 with an empty body (spec proxy-api §8.2).
namespace pd::sim {

struct LoadStats {
    quint64 sent = 0;
    quint64 succeeded = 0;
    quint64 failed = 0;       // HTTP error, connection error
    quint64 emptyOk = 0;      // 200 with an empty body: a decoder failed behind the proxy
    quint64 skipped = 0;      // arrivals dropped because max in-flight was reached
    int inFlight = 0;
};

class LoadGenerator final : public QObject {
    Q_OBJECT
public:
    LoadGenerator(QHostAddress proxyHost, quint16 proxyPort, QString model, int maxModelLen, quint64 seed,
                  QObject *parent = nullptr);

    void setRate(double requestsPerSecond);
    double rate() const { return m_rate; }
    // Closed-loop load: n clients, each sending its next request as soon as its last one ended (0: off).
    // With n >= 2 and long outputs the proxy is never idle, the steady traffic under which a drain never
    // ends (proxy-api §8.3). Independent of the Poisson rate; both may run.
    void setStreams(int n);
    int streams() const { return m_streams; }
    void setMaxInFlight(int n) { m_maxInFlight = n; }
    const LoadStats &stats() const { return m_stats; }

private:
    void arrive();
    void scheduleNext();
    // One request; `stream`: it belongs to a closed-loop client, which sends the next when it ends.
    void send(bool stream = false);
    void streamEnded(bool failed);

    QHostAddress m_host;
    quint16 m_port;
    QString m_model;
    int m_maxModelLen;
    double m_rate = 0;
    int m_maxInFlight = 256;
    int m_streams = 0; // closed-loop clients wanted
    int m_streamsLive = 0; // closed-loop requests in flight
    QTimer m_timer;
    std::mt19937_64 m_random;
    LoadStats m_stats;
};

} // namespace pd::sim
