// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaletypes.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QSslCertificate>

#include <functional>
#include <optional>

class QNetworkAccessManager;

// Asks one engine directly (never through the proxy): is it serving (/v1/models and /health), how
// busy is it (/metrics: running and waiting requests, token counters), does anything listen on its port.
//
// Threads and transport: lives on the thread that creates it and answers there. By default it makes
// and owns its QNetworkAccessManager; a caller may lend one instead (tests lend a canned transport,
// tests/support/cannedtransport.h): not owned, it must outlive the probe and live in the probe's thread.
namespace pd {

struct EngineReadiness {
    bool listening = false;  // some HTTP answer came back
    bool models = false;     // GET /v1/models 200
    bool health = false;     // GET /health 200
    QString detail;          // what failed, for the progress line
    bool ready() const { return models && health; }
};

struct EngineLoad {
    double running = 0;      // vllm:num_requests_running
    double waiting = 0;      // vllm:num_requests_waiting
    double tokens = 0;       // vllm:prompt_tokens_total + vllm:generation_tokens_total
};

struct PoolReadings {
    QHash<QString, EngineLoad> loads; // by EngineRef::id
    QSet<QString> notAnswering;       // ids
};

class EngineProbe final : public QObject {
    Q_OBJECT
public:
    explicit EngineProbe(QObject *parent = nullptr);
    // Asks through `transport` (borrowed, see above); nullptr: a transport of its own.
    explicit EngineProbe(QNetworkAccessManager *transport, QObject *parent = nullptr);

    void setBearerToken(const QByteArray &token) { m_token = token; }
    // Engines serving https (profile tls.engines), verified against the system's CAs plus `extraCas`.
    void setTls(bool https, const QList<QSslCertificate> &extraCas)
    {
        m_https = https;
        m_extraCas = extraCas;
    }
    void setTimeout(int ms) { m_timeoutMs = ms; }

    void readiness(const EngineRef &engine, std::function<void(const EngineReadiness &)> done);
    // The engine's /metrics read, or nullopt and why: an HTTP error, no answer, a body that is not an
    // exposition, or a 200 whose body did not arrive whole (cut, stalled, over 8 MiB): never a partial read.
    void load(const EngineRef &engine, std::function<void(std::optional<EngineLoad>, const QString &error)> done);
    // Reads every engine's load in parallel; engines that did not answer are absent from the result.
    void loads(const QList<EngineRef> &engines, std::function<void(const QHash<QString, EngineLoad> &)> done);
    // What a pool plan needs of its members: every load that could be read, and the members whose
    // engine does not answer at all (nothing listens: stopped or crashed while the proxy lists it).
    // A member that answers but whose /metrics fails is in neither (slow is not dead).
    void poolReadings(const QList<EngineRef> &engines, std::function<void(const PoolReadings &)> done);

private:
    void get(const EngineRef &engine, const QString &path, std::function<void(int status, const QByteArray &body, const QString &error)> done);

    QNetworkAccessManager *m_network; // owned (a child) or borrowed
    QByteArray m_token;
    bool m_https = false;
    QList<QSslCertificate> m_extraCas;
    int m_timeoutMs = 3000;
};

// The gauges and counters a scale operation reads from one /metrics body. nullopt with *error when
// the body is not an exposition or lacks vllm:num_requests_running.
std::optional<EngineLoad> parseEngineLoad(const QByteArray &body, QString *error);

} // namespace pd
