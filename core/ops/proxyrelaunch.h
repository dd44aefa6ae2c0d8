// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/scalecontext.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

// The proxy's process stopped and started again with given instance lists, as one asynchronous piece
// that operations share (ProxyRestartScale for a proxy without /instances; DpGroupOperation and ScaleOut
// when a busy proxy never finalises the drain of instances that must come back, proxy-api §8.3, §8.12):
//
//   count     the requests in flight right before the stop: the proxy's request_num, else the sum of
//             the listed members' own running + waiting requests (v0.9.1-dev has no request_num).
//             They fail when the proxy stops; the count is said in the result.
//   stop      the proxy's process, then wait until it is gone (ScaleSettings::stopTimeoutMs)
//   start     with `lists`; a start that fails is retried once with `fallback`, so a failed relaunch
//             leaves the previous membership serving rather than no proxy
//   verify    /healthcheck answers with the lists' counts (60 s at most)
//
// The membership table is told (noteProxyRestarted): a restarted proxy has no draining and no waiting
// instance, and its lists are the new last known good ones, so no "restore membership" is offered for
// a restart the operator confirmed.
namespace pd {

struct RelaunchResult {
    bool ok = false; // running with `lists` and verified
    bool rolledBack = false; // running again with `fallback`
    bool proxyDown = false; // started with neither: nothing serves
    std::optional<int> failedInFlight; // requests in flight when the proxy stopped (they failed)
    QString inFlightSource; // where that count comes from
    QString detail; // one line: what happened, or why not
};

class ProxyRelaunch final : public QObject {
    Q_OBJECT
public:
    ProxyRelaunch(ScaleContext *context, ProxyLists lists, ProxyLists fallback, QObject *parent = nullptr);

    // Begins; finished() follows exactly once. Cannot be cancelled: a stopped proxy is always started.
    void start();
    const ProxyLists &lists() const { return m_lists; }

    // The requests in flight through the proxy now, and where the count comes from (the same rule as
    // the count step); a member that does not answer counts 0 and is said in the source.
    static void countInFlight(ScaleContext *context, const ProxyLists &members, QObject *guard,
        std::function<void(std::optional<int> count, const QString &source)> done);

Q_SIGNALS:
    void progress(const QString &detail);
    void finished(const pd::RelaunchResult &result);

private:
    void stopProxy();
    void startWith(const ProxyLists &lists, bool rollback);
    void verify(const ProxyLists &expected);
    void finish(bool ok, const QString &detail);
    // Calls `attempt` every pollMs until it reports true or timeoutMs passed, then `then(timedOut)`.
    void pollUntil(
        int timeoutMs, std::function<void(std::function<void(bool)>)> attempt, std::function<void(bool)> then);

    ScaleContext *m_ctx;
    ProxyLists m_lists;
    ProxyLists m_fallback;
    RelaunchResult m_result;
    QString m_firstError;
    QTimer m_timer;
    QElapsedTimer m_clock;
    quint64 m_serial = 0;
};

} // namespace pd
