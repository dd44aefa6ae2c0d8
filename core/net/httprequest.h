// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QUrl>

#include <utility>

// How every HTTP client of the console builds its request (the proxy client, its /healthcheck poller,
// the engine probe, the warm-up, Prometheus, pdsim's control API, the webhook), in one place:
//   - the transfer timeout (the reply aborts when no byte moves for that long);
//   - redirects are answers, never followed: a proxy, engine or Prometheus that redirects is
//     misconfigured, and following would carry the bearer token to wherever it points. Only a webhook
//     may follow a redirect, and then only to a place no less safe (https stays https);
//   - "Authorization: Bearer <token>" when a token is set;
//   - the body's type when there is a body;
//   - https peers verified against the system's authorities plus the profile's (tls.ca_file), never
//     without verification.
// The metrics poller's own client (httpgetclient) does not use Qt's network stack and is not here.
class QNetworkReply;

namespace pd {

// What a request needs, said with chained setters: HttpRequestSpec(url).withTimeout(2000).withBearerToken(t).
struct HttpRequestSpec {
    explicit HttpRequestSpec(QUrl target)
        : url(std::move(target))
    {
    }
    HttpRequestSpec &withTimeout(int ms)
    {
        timeoutMs = ms;
        return *this;
    }
    HttpRequestSpec &withBearerToken(const QByteArray &token)
    {
        bearerToken = token;
        return *this;
    }
    HttpRequestSpec &withExtraCas(const QList<QSslCertificate> &cas)
    {
        extraCas = cas;
        return *this;
    }
    HttpRequestSpec &withContentType(const QByteArray &type)
    {
        contentType = type;
        return *this;
    }
    HttpRequestSpec &followingSafeRedirects()
    {
        followSafeRedirects = true;
        return *this;
    }

    QUrl url;
    int timeoutMs = 0; // 0: no transfer timeout
    QByteArray bearerToken; // empty: no Authorization header
    QList<QSslCertificate> extraCas; // trusted besides the system's
    QByteArray contentType; // empty: no body, or the caller's own header
    bool followSafeRedirects = false; // only webhooks
};

QNetworkRequest makeHttpRequest(const HttpRequestSpec &spec);

// An overall deadline for `reply`, beside the request's inactivity timeout: a peer that drip-feeds its
// answer (a byte now and then) keeps the transfer timer from ever firing, so after `ms` the reply is
// aborted all the same (OperationCanceledError, as for the inactivity timeout; property "pdDeadline").
void armDeadline(QNetworkReply *reply, int ms);

} // namespace pd
