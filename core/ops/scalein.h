// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaleoperation.h"

// Scale in one engine (spec proxy-api §2.3, §8.1, §8.3, §13.4-5):
//   preflight (never remove a WAITING instance, last-instance guard)
//   -> POST /instances/remove (skipped when it is not in the proxy)
//   -> drain: show it draining while the proxy still lists it, wait until the engine's own
//      num_requests_running and num_requests_waiting are 0 on two consecutive reads
//   -> stop the engine
//   -> verify: the process is gone and nothing answers on its port.
// Under steady load the proxy keeps a removed instance listed until it is idle (§8.3): the operation
// does not wait for that; the membership table shows it DRAINING until it leaves the list.
// setImmediate(true) (kind "stop") is the operator's plain or forced stop: an active instance is still
// taken out of the proxy first (so it stops routing there) and a WAITING one still refused, but there is
// no drain (requests in flight end with the engine), and a proxy that does not answer does not block it.
namespace pd {

class ScaleIn final : public ScaleOperation {
    Q_OBJECT
public:
    enum Step { Preflight, RemoveFromProxy, Drain, StopEngine, Verify };

    // allowLastInstance: the operator's explicit override of the last-instance guard.
    ScaleIn(EngineRef engine, ScaleContext *context, bool allowLastInstance = false, QObject *parent = nullptr);

    // Whether the engine is stopped in the end (false: only taken out of the proxy).
    void setStopEngine(bool stop) { m_stopEngine = stop; }
    // Before start(): stop without draining, and without needing the proxy (see above).
    void setImmediate(bool immediate);

protected:
    void run() override;
    void describeForJournal(OperationRecord &record) const override;

private:
    void preflight();
    void removeFromProxy();
    void drain();
    void stopEngine();
    void verify();

    bool m_allowLast;
    bool m_stopEngine = true;
    bool m_immediate = false;
    bool m_inProxy = false;
    int m_zeroReads = 0;
};

} // namespace pd
