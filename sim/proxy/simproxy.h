// SPDX-License-Identifier: MIT
#pragma once

#include "http/httpserver.h"
#include "proxylog.h"
#include "proxyoptions.h"
#include "proxyscheduler.h"

#include <QObject>

namespace pd::sim {

class NodeListener;

// The simulated vllm-ascend load-balance proxy (spec proxy-api.md) on pdsim's HttpServer: the
// endpoints of the chosen generation with their exact JSON, texts and status codes, the shared
// scheduler, the NodeListener and the defects of §8 (each switchable in ProxyOptions).
// Thread contract: lives in one thread; everything runs on its event loop.
class SimProxy final : public QObject {
    Q_OBJECT
public:
    explicit SimProxy(ProxyOptions options, QObject *parent = nullptr);
    ~SimProxy() override;

    // Binds options().host:options().port ("localhost" binds 127.0.0.1; port 0 picks one) and starts
    // the NodeListener. False with *error on failure.
    bool listen(QString *error);
    quint16 port() const;
    void close();

    const ProxyOptions &options() const { return m_options; }
    // What uvicorn prints once the app listens (uvicorn.run: the process, the lifespan, the address).
    QStringList startupLines() const;
    QStringList shutdownLines() const; // SIGTERM: uvicorn's shutdown
    const ProxyScheduler &scheduler() const { return m_scheduler; }
    int requestCount() const { return m_scheduler.requestCount(); }
    bool isListenerAlive() const;
    // A fault to test against: the next `count` calls of /instances/add or /instances/remove answer 500
    // (text/plain "Internal Server Error", as uvicorn does for an unhandled exception), changing nothing.
    void failNextAdminCalls(int count) { m_adminErrors = qMax(0, count); }
    int adminErrorsLeft() const { return m_adminErrors; }

Q_SIGNALS:
    // One line the real proxy would print (stdout) or log (stderr), without the newline.
    void output(pd::sim::ProxyStream stream, const QString &line);
    // uvicorn's access line for an answer (stdout), when ProxyOptions::accessLog is on.
    void accessLine(const QString &line);
    void listenerRoundFinished();
    void listenerCrashed(const QString &key);

private:
    void handle(const HttpRequest &request, const HttpResponderPtr &responder);
    void healthcheck(const HttpResponderPtr &responder);
    void models(const HttpResponderPtr &responder);
    void resetPrefixCache(const HttpRequest &request, const HttpResponderPtr &responder);
    void relay(const HttpRequest &request, const HttpResponderPtr &responder);

    ProxyOptions m_options;
    ProxyScheduler m_scheduler;
    ProxyLog m_log;
    HttpServer *m_server;
    NodeListener *m_listener = nullptr;
    int m_adminErrors = 0;
};

} // namespace pd::sim
