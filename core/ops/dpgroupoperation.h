// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaleoperation.h"

#include <QHash>

// One operation on a whole coupled DP group (docs/scaling.md, docs/dp-groups.md §2-3). Its ranks are
// not independent processes: they join one rendezvous before they serve, and a rank that stops while
// the others serve hangs them all. So every step acts on all ranks at once:
//   scale-out (kind "group-scale-out", or "group-start" when it is not to be added): preflight -> start every rank
//   without waiting between them
//     -> wait until every rank answers /v1/models and /health, one deadline for the group
//     (ScaleSettings::groupReadyTimeoutMs) -> add all in one call -> wait until the proxy lists all.
//     A failed start or a missed deadline stops every rank again (a half-started group only waits).
//   scale-in ("group-scale-in"): preflight (no WAITING rank, last-instance guard) -> remove all listed
//     ranks in one call -> drain until no rank runs a request -> stop all -> verify all stopped.
//   restart ("group-restart"): out of the proxy, drained (a hung group never drains: after the idle
//     timeout it is stopped anyway), stopped (stragglers asked again), then the scale-out half.
// For the runner the group is one operation (one slot of the parallel cap) that keeps all its ranks busy.
namespace pd {

class DpGroupOperation final : public ScaleOperation {
    Q_OBJECT
public:
    enum class Mode { ScaleOut, ScaleIn, Restart };
    enum Step {
        Preflight,
        RemoveFromProxy,
        Drain,
        StopRanks,
        VerifyStopped,
        StartRanks,
        WaitReady,
        AddToProxy,
        WaitListed
    };

    // ranks: every rank of the group, in rank order. allowLastInstance: the explicit override of the
    // last-instance guard (the group holds the pool's last active instances).
    DpGroupOperation(Mode mode, QString groupId, QList<EngineRef> ranks, ScaleContext *context,
        bool allowLastInstance = false, QObject *parent = nullptr);

    // Before start(), scale-out only: false starts the group and waits until it serves, without adding
    // it (kind "group-start").
    void setAddToProxy(bool add);
    // Before start(), restart only: the console reads the group as broken (a rank dead, the others hung
    // in a collective). Its ranks produce no tokens, so their requests never finish: they are taken out of
    // the proxy and stopped at once, not drained. The preflight also finds it (some ranks run, some not).
    void setBroken(bool broken) { m_broken = broken; }
    // Before start(), scale-out only (repairing an operation cut short between its stops or starts): a
    // group found with some ranks running and some not is restarted as a whole (its survivors hang)
    // instead of refused.
    void setRestartIfBroken(bool restart) { m_restartIfBroken = restart; }
    bool isBroken() const { return m_broken; }

    Mode mode() const { return m_mode; }
    const QString &groupId() const { return m_groupId; }
    const QList<EngineRef> &ranks() const { return m_ranks; }
    QStringList engineIds() const override;

protected:
    void run() override;

private:
    void preflight();
    void checkRanks();
    void checkBroken(); // restart: some ranks run and some do not -> broken
    void removeFromProxy();
    void drain();
    void stopRanks();
    void verifyStopped();
    void startRanks();
    void waitReady();
    void addToProxy();
    void sendAdd();
    void waitListed();

    // Stops every rank, not waiting for the answers: the cleanup after a failed start.
    void stopAllQuietly();
    QStringList activeIds() const;

    Mode m_mode;
    QString m_groupId;
    QList<EngineRef> m_ranks;
    bool m_allowLast;
    bool m_addToProxy = true;
    int m_running = 0; // ranks whose process runs (preflight)
    int m_ready = 0; // of them, ranks that serve
    QStringList m_removed; // ranks this operation took out of the proxy
    QHash<QString, int> m_zeroReads;
    bool m_stragglersAsked = false;
    bool m_restartIfBroken = false;
    bool m_broken = false;
};

} // namespace pd
