// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/promapianswer.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QString>
#include <QUrl>

#include <cstdint>
#include <functional>
#include <string>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

// Prometheus' HTTP API (/api/v1/query, /api/v1/query_range, /api/v1/targets) over
// QNetworkAccessManager, in the thread the client lives in: the Prometheus source runs it on its own
// thread, where answers of several MB are decoded without touching the GUI. A few requests per
// second at most, all asynchronous; queries are POSTed as a form (a selector naming 1,000 engines
// does not fit in a URL). Bearer token, HTTPS with certificate verification (system CAs plus optional
// extra ones; errors are never ignored), a timeout and a size limit on every answer.
namespace pd {

struct PrometheusEndpoint {
    QUrl base; // http(s)://host:port[/prefix]
    QByteArray bearerToken; // "Authorization: Bearer ..." when not empty
    QList<QSslCertificate> extraCaCertificates; // trusted besides the system's
    int timeoutMs = 10000;
    qint64 maxAnswerBytes = 512LL * 1024 * 1024;
};

class PrometheusClient final : public QObject {
    Q_OBJECT
public:
    explicit PrometheusClient(QObject *parent = nullptr);

    void setEndpoint(const PrometheusEndpoint &endpoint);
    const PrometheusEndpoint &endpoint() const { return m_endpoint; }

    using QueryCallback = std::function<void(const PromApiAnswer &, qint64 answerBytes)>;
    using TargetsCallback = std::function<void(const PromTargetsAnswer &)>;

    // An instant query at the server's current time (timeMs 0) or at timeMs.
    void query(const std::string &promql, QueryCallback done, std::int64_t timeMs = 0);
    // A range query, [startMs, endMs] at stepMs (the server refuses more than 11,000 steps).
    void queryRange(
        const std::string &promql, std::int64_t startMs, std::int64_t endMs, std::int64_t stepMs, QueryCallback done);
    void targets(TargetsCallback done);

    // Drops every outstanding request; their callbacks are not called.
    void abortAll();
    int pending() const;

private:
    QNetworkRequest request(const QString &path, const QString &query) const;
    QNetworkReply *post(const QString &path, const QByteArray &form);
    QNetworkReply *get(const QString &path, const QString &query);
    void prepare(QNetworkReply *reply);
    struct Raw {
        int status = 0;
        QByteArray body;
        QString transportError; // empty when an HTTP answer arrived
    };
    Raw read(QNetworkReply *reply) const;
    // Once `reply` finishes (not after abortAll()): the transport's error or `decode(status, body)`,
    // an error prefixed with `what`.
    template<class Answer, class Decode>
    void deliver(QNetworkReply *reply, const QString &what, Decode decode,
        std::function<void(const Answer &, qint64 answerBytes)> done);
    void deliverQuery(QNetworkReply *reply, const QString &what, const QueryCallback &done);

    QNetworkAccessManager *m_network;
    PrometheusEndpoint m_endpoint;
    quint64 m_generation = 0;
};

} // namespace pd
