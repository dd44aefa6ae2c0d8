// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/scaleoperation.h"
#include "ops/scaleplan.h"

// A pool resize for a proxy that has no /instances API (vllm-ascend v0.9.1-dev, and main before
// v0.13): its membership is its command line, so the one honest way to change it is to restart the
// proxy with new lists. One confirmed, audited operation over the whole plan:
//
//   start-engines   the plan's new engines (whole coupled groups) start          (skipped on scale-in)
//   wait-ready      ... until each answers /v1/models and /health
//   wait-idle       no request in flight: the proxy's request_num where it reports one, else the sum
//                   of the members' own vllm:num_requests_running + waiting (v0.9.1-dev's /healthcheck
//                   has no request_num). With allowInFlight it waits for nothing and says how many
//                   requests the restart will fail.
//   restart-proxy   stop the proxy, confirm it is down, start it with the new lists; a start that
//                   fails is retried once with the previous lists, so a failed resize leaves the old
//                   membership serving rather than no proxy
//   verify          /healthcheck answers with the new lists' counts
//   stop-engines    the engines that left stop                                   (skipped on scale-out)
//
// Every new request fails while the proxy is down (seconds). A cancel before restart-proxy leaves the
// proxy untouched (new engines stay up, outside the proxy); after it, the steps run to the end.
namespace pd {

class ProxyRestartScale final : public ScaleOperation {
    Q_OBJECT
public:
    // current: the running proxy's lists (its command line). plan: planPoolScale's engines to start and
    // to remove for one role.
    ProxyRestartScale(
        const ScalePlan &plan, const ProxyLists &current, ScaleContext *context, QObject *parent = nullptr);

    void setAllowInFlight(bool allow) { m_allowInFlight = allow; }
    QStringList engineIds() const override;
    const ProxyLists &newLists() const { return m_next; }

    // The lists after the plan: the role's list without the leaving engines, the new ones appended.
    static ProxyLists listsAfter(const ProxyLists &current, const ScalePlan &plan);
    // Marks a planPoolScale plan as applied this way (its describe() then says the proxy restarts, and
    // with which list), for a proxy whose running lists are `current`.
    static void markPlan(ScalePlan &plan, const ProxyLists &current);

protected:
    void run() override;

private:
    void startEngines();
    void waitReady();
    void waitIdle();
    void inFlight(std::function<void(std::optional<int> count, const QString &source)> done);
    void restartProxy(); // ProxyRelaunch: stop, start with the new lists (the old ones on failure), counts
    void verify(const QString &counts);
    void stopEngines();

    ScalePlan m_plan;
    ProxyLists m_current;
    ProxyLists m_next;
    bool m_allowInFlight = false;
    int m_pending = 0;
    QStringList m_failures;
};

} // namespace pd
