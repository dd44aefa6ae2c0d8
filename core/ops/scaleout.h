// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaleoperation.h"

// Scale out one engine (spec proxy-api §3, §8.1, §13.3):
//   preflight (membership, proxy generation, node/NPU via the control seam, port free)
//   -> start the engine (skipped when it already runs)
//   -> wait until the engine itself answers /v1/models and /health
//   -> POST /instances/add
//   -> wait until the proxy lists it, at most interval x (retries + 1) + margin; otherwise DROPPED, or
//      "proxy listener dead - restart the proxy" when the engine answers but was never activated (§8.1)
//   -> verify it receives traffic (its own token counters move).
// With setAddToProxy(false) (kind "start") it only starts the engine and waits until it serves: the proxy
// is not consulted, the last three steps are skipped, and the engine is left ready outside the proxy.
namespace pd {

class ScaleOut final : public ScaleOperation {
    Q_OBJECT
public:
    enum Step { Preflight, StartEngine, WaitReady, AddToProxy, WaitListed, VerifyTraffic };
    // How the add ended when it did not succeed.
    enum class AddFailure { None, Dropped, ListenerDead };

    ScaleOut(EngineRef engine, ScaleContext *context, QObject *parent = nullptr);

    // Before start(): false starts the engine and waits until it serves, without adding it.
    void setAddToProxy(bool add);

    AddFailure addFailure() const { return m_addFailure; }
    bool trafficVerified() const { return m_trafficVerified; }

protected:
    void run() override;

private:
    void preflight();
    void startEngine();
    void waitReady();
    void addToProxy();
    void sendAdd();
    void waitListed();
    void verifyTraffic();

    void checkNode();

    bool m_addToProxy = true;
    bool m_running = false;
    bool m_ready = false;
    AddFailure m_addFailure = AddFailure::None;
    bool m_trafficVerified = false;
    double m_tokensBefore = -1;
};

} // namespace pd
