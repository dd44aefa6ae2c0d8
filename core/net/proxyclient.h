// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/instancekey.h"

#include "cluster/profile.h"
#include "net/proxyhealth.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

// The proxy's administration API (spec proxy-api §2.1-§2.4, §2.6): /healthcheck, /instances/add,
// /instances/remove, /v1/models, through QNetworkAccessManager on the thread the client lives in
// (the GUI thread is fine: a few small requests per second, all asynchronous). Bearer token, HTTPS
// with certificate verification (system CAs plus optional extra CAs; errors are never ignored),
// a timeout on every request.
//
// Messages are returned for display only: callers decide from the lists (§8.4).
//
// Transport: by default the client makes and owns its QNetworkAccessManager. A caller may lend one
// instead (tests lend a canned transport, tests/support/cannedtransport.h): it is not owned, must
// outlive the client, and must live in the client's thread (Qt's network access is per thread; its
// replies are delivered there). A lent transport may be shared: abortAll() and setEndpoint() abort only
// this client's requests. Redirects are refused per request (makeHttpRequest), so a lent transport's own
// redirect policy does not matter.
namespace pd {

struct ProxyEndpoint {
    QUrl base;                          // http(s)://host:port
    QByteArray bearerToken;             // sent as "Authorization: Bearer ..." when not empty
    QList<QSslCertificate> extraCaCertificates; // trusted in addition to the system's
    int timeoutMs = 5000;
    // The generation the profile says the proxy runs (proxy.generation). It decides whatever the proxy's
    // answers cannot: a failed list call is a failed call, never "this proxy has no /instances API".
    std::optional<ProxyGeneration> declaredGeneration = std::nullopt;
};

// The pool lists of an add/remove answer, in the proxy's insertion order, host strings as given.
struct ProxyLists {
    QStringList prefill;
    QStringList decode;
    const QStringList &of(Role role) const { return role == Role::Prefill ? prefill : decode; }
};

struct ProxyReply {
    bool ok = false;                 // HTTP 200 with the documented shape
    int httpStatus = 0;              // 0: no HTTP answer (refused, timeout, TLS)
    QString error;                   // why not ok, naming the endpoint
    QString message;                 // the proxy's "message" (display only, never status)
    std::optional<ProxyLists> lists; // current_prefill_instances / current_decode_instances
    qint64 elapsedMs = 0;
    bool refused = false; // no HTTP answer because nothing listened (the process was down)
};

// What the proxy at the other end is, from probes at connect time (spec §10, last paragraph).
struct ProxyCapabilities {
    bool reachable = false;
    bool hasRequestNum = false;   // /healthcheck has request_num: v0.21+ (async add, shared scheduler)
    bool hasInstancesApi = false; // /instances/add answers: v0.13+ (elastic scaling)
    bool hasModels = false;       // /v1/models answers (200 or 503): main after Aug 2026
    QString error;                // when not reachable, or a probe failed oddly
    // Whether hasInstancesApi rests on the proxy's answer: the list call answered 200 with lists (it has
    // the API) or 404/405 (it has not). A 5xx, a timeout or a cut answer, three times over, decides
    // nothing: the declared generation stands in (main: it has), and the next currentCapabilities()
    // asks again.
    bool instancesApiDecided = false;
    std::optional<ProxyGeneration> declared = std::nullopt; // ProxyEndpoint::declaredGeneration
    // Membership is the proxy's command line and a pool scales by restarting it (ProxyRestartScale):
    // only when the proxy showed it has no /instances API and the profile does not say main.
    bool scalesByRestart() const;
    // Why the proxy's answer contradicts the declared generation (a main proxy that answers 404 on
    // /instances/add: another program on the port, or the profile's generation is wrong); empty otherwise.
    QString generationMismatch() const;
    // A short label: "main (2026-08+)", "v0.21-v0.26", "v0.13-v0.20", "pre-v0.13 or layerwise".
    QString generationLabel() const;
    // Since v0.21 an add is always asynchronous; before, reachable instances were activated at once.
    bool addIsAsynchronous() const { return hasRequestNum; }
    // Without request_num the console cannot see whether the proxy is idle: it must assume busy.
    bool canSeeIdle() const { return hasRequestNum; }
};

class ProxyClient final : public QObject {
    Q_OBJECT
public:
    explicit ProxyClient(QObject *parent = nullptr);
    // Sends through `transport` (borrowed, see above); nullptr: a transport of its own.
    explicit ProxyClient(QNetworkAccessManager *transport, QObject *parent = nullptr);

    void setEndpoint(const ProxyEndpoint &endpoint);
    const ProxyEndpoint &endpoint() const { return m_endpoint; }

    using HealthCallback = std::function<void(const ProxyHealth &)>;
    using ReplyCallback = std::function<void(const ProxyReply &)>;
    using CapabilitiesCallback = std::function<void(const ProxyCapabilities &)>;

    void healthcheck(HealthCallback done);
    void addInstances(Role role, const QStringList &instances, ReplyCallback done);
    void removeInstances(Role role, const QStringList &instances, ReplyCallback done);
    // The harmless list call of §2.4: an add with an empty list (never a remove: a typo would remove).
    void listInstances(ReplyCallback done);
    // /healthcheck, /v1/models and the list call; the result is also kept in capabilities().
    void detectCapabilities(CapabilitiesCallback done);
    const std::optional<ProxyCapabilities> &capabilities() const { return m_capabilities; }
    // What an operation acts on: the kept capabilities while they say the proxy answered, else a fresh
    // detection. A proxy once found down is asked again, never assumed down for good (a Force stop would
    // skip the removal and leave the proxy routing to a stopped engine, spec §8.2).
    void currentCapabilities(CapabilitiesCallback done);

    // Drops every outstanding request (their callbacks are not called).
    void abortAll();

private:
    // The list call of detectCapabilities, asked up to three times while its answer decides nothing.
    void listForCapabilities(std::shared_ptr<ProxyCapabilities> caps, int attempt, std::function<void()> finish);

    QNetworkReply *send(const QByteArray &method, const QString &path, const QByteArray &body);
    void instances(const QString &path, Role role, const QStringList &instances, ReplyCallback done);

    QNetworkAccessManager *m_network; // owned (a child) or borrowed
    QList<QPointer<QNetworkReply>> m_inFlight; // this client's replies, for abortAll()
    ProxyEndpoint m_endpoint;
    std::optional<ProxyCapabilities> m_capabilities;
    quint64 m_generation = 0; // bumped by setEndpoint/abortAll: older replies are dropped
};

// Parses an add/remove answer body. Exposed for tests.
ProxyReply parseInstancesReply(int httpStatus, const QByteArray &body, const QString &path);

// An answer that is not HTTP 200: a readable reason (401/403 name the bearer token).
QString describeHttpFailure(const QString &path, int httpStatus, const QByteArray &body, const QString &transportError);

} // namespace pd
Q_DECLARE_METATYPE(pd::ProxyLists)
