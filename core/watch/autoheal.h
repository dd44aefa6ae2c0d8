// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "state/enginestate.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstdint>

// Auto-heal, opt-in (`pdctl watch --auto-heal`; docs/watchdog.md): a coupled DP group the monitor reads
// as broken (a rank dead, the others hung in their collectives) is restarted as one group and brought
// back into the proxy once every rank serves, without a human. One DpGroupOperation (restart, broken: the
// frozen ranks are not drained), every step of it audited like an operator's; a busy proxy that still
// drains the ranks when they serve again is restarted with its current lists (ScaleSettings::
// restartProxyForDrains, which the healer's context sets: healing accepts that cost, counted).
// Guardrails, each said once as a "heal-held" event while it holds:
//   - broken for brokenPolls rounds in a row first (a blip is not a break);
//   - one group at a time, and never while another operation of this process runs;
//   - at most maxPerHour heals in any hour;
//   - never a group one of whose ranks the operator stopped or took out on purpose (intent Stop/Drain);
//   - never while an operator acts on the pool: an intent declared on one of its engines in the last
//     quietMs by anyone but this healer (other consoles and pdctl, read from the shared audit log).
namespace pd {

class ScaleOperation;
class ScaleRunner;
class StateTracker;
struct ScaleContext;

struct AutoHealSettings {
    bool enabled = false;
    int brokenPolls = 3;
    int maxPerHour = 2;
    std::int64_t quietMs = 5 * 60 * 1000;
};

class AutoHeal final : public QObject {
    Q_OBJECT
public:
    // ctx: the scaling context the operations run with (control, probe, proxy, membership, audit, groups);
    // runner: where they run. Neither owned.
    AutoHeal(StateTracker *tracker, ScaleContext *ctx, ScaleRunner *runner, QObject *parent = nullptr);

    void setSettings(const AutoHealSettings &settings) { m_settings = settings; }
    const AutoHealSettings &settings() const { return m_settings; }
    // An intent another actor declared (AuditIntentFeed), unless it repeats one of this healer's own.
    void noteForeignIntent(const QString &engineId, OperatorIntent intent, std::int64_t atMs);

    // One poll round: decides and starts at most one heal.
    void round();
    int heals() const { return m_heals; }
    bool isHealing() const { return !m_running.isNull(); }

Q_SIGNALS:
    void event(const nlohmann::ordered_json &json, const QString &line);

private:
    QString heldBy(int group, Role role) const; // why this group is not healed now, empty when it may be
    void hold(const QString &groupId, const QString &why);
    void startHeal(int group);

    StateTracker *m_tracker;
    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
    AutoHealSettings m_settings;
    QHash<QString, int> m_brokenRounds; // group id -> rounds read broken in a row
    QHash<QString, QString> m_held; // group id -> the guardrail last said
    QList<std::int64_t> m_healTimes;
    QHash<QString, std::int64_t> m_ownIntentAt; // engine id -> when this healer's operation declared one
    QHash<QString, std::int64_t> m_foreignIntentAt; // engine id -> the latest intent by another actor
    QPointer<ScaleOperation> m_running;
    QString m_runningGroup;
    int m_heals = 0;
};

} // namespace pd
