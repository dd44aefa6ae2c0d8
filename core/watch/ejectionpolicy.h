// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "state/enginestate.h"
#include "state/groupstate.h"
#include "watch/ejectionsettings.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <cstdint>

// When to take an instance out of the proxy without a human, and when to put it back (auto-eject).
// Pure: fed one snapshot per poll round, it says what to remove or re-add and which guardrail held;
// the Watchdog carries the decisions out through the proxy API and audits them.
//
// The unit of ejection is what fails together: an engine on its own, or every rank of a coupled DP
// group (dp-groups.md: a dead rank hangs the others, so removing one rank alone never helps and a
// group is ejected whole or not at all). A unit is bad when one of its listed engines is unhealthy or
// stalled, or unreachable or stopped after it answered once in this watch (an engine never seen up may
// be loading its weights: it is left alone), or its coupled group is broken, for `badPolls` rounds in a row.
// Guardrails, each reported as a refusal with its reason:
//   - never the last listed instance of a pool (the proxy with an empty pool fails every request);
//   - never while an instance of the unit is WAITING (proxy-api.md 8.1: removing one kills the
//     proxy's listener thread);
//   - at most `maxEjections` ejections (units) in any `windowMs`;
//   - a coupled rank only with its whole group.
// An ejected unit whose engines all answer again, ready and out of the proxy, for `readdPolls` rounds
// is added back (unless readd is off); one the operator re-added or removed for good is forgotten.
namespace pd {

struct EjectionEngine {
    QString id; // "host:port" as the profile names it
    Role role = Role::Decode;
    EngineState state = EngineState::Unknown;
    MembershipFact membership = MembershipFact::Unknown;
    bool answeredBefore = false; // up (HTTP answered) at least once since the watch began
    QString reason; // the derived state's reason, for the audit line
};

struct EjectionGroup {
    QString id; // "decode@host:port"
    bool coupled = false;
    GroupHealth health = GroupHealth::Unknown;
    QList<int> engines; // indices into EjectionInput::engines
};

struct EjectionInput {
    QList<EjectionEngine> engines;
    QList<EjectionGroup> groups;
    std::int64_t nowMs = 0;
};

struct EjectionDecision {
    enum class Action { Eject, Readd };
    Action action = Action::Eject;
    QString unit; // "decode 127.0.0.8:9004" or "group decode@127.0.0.8:13395"
    Role role = Role::Decode;
    QStringList instances; // host:port, in rank order
    QString reason;
};

struct EjectionRefusal {
    QString unit;
    QString why;
};

struct EjectionRound {
    QList<EjectionDecision> decisions;
    QList<EjectionRefusal> refusals; // new or changed since the last round (a held guardrail is said once)
};

class EjectionPolicy {
public:
    explicit EjectionPolicy(EjectionSettings settings = {});
    const EjectionSettings &settings() const { return m_settings; }
    void setSettings(const EjectionSettings &settings) { m_settings = settings; }

    EjectionRound evaluate(const EjectionInput &input);
    // The proxy refused or did not answer: the unit counts as not ejected (tried again after badPolls).
    void ejectionFailed(const QString &unit);
    void readdFailed(const EjectionDecision &readd);

    QStringList ejectedUnits() const;
    bool isEjected(const QString &unit) const { return m_ejected.contains(unit); }

private:
    struct Unit {
        QString name;
        Role role = Role::Decode;
        QList<int> engines;
        bool group = false;
    };
    QList<Unit> unitsOf(const EjectionInput &input) const;
    static bool engineBad(const EjectionEngine &e);
    void refuse(EjectionRound &round, const QString &unit, const QString &why);

    EjectionSettings m_settings;
    QHash<QString, int> m_badRounds;
    QHash<QString, int> m_goodRounds;
    QHash<QString, QStringList> m_ejected; // unit -> its instances
    QList<std::int64_t> m_ejectionTimes;
    QHash<QString, QString> m_refused; // unit -> the reason last said
};

} // namespace pd
