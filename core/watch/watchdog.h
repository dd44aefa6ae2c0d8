// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"
#include "watch/autoheal.h"
#include "watch/ejectionpolicy.h"
#include "watch/problemtransitions.h"
#include "watch/webhooksender.h"

#include <QObject>
#include <QSet>

#include <functional>
#include <memory>

// Watches the ranked problems and acts on them without a human: every problem that appears or clears
// becomes one event (a text line and a JSON object: printed by `pdctl watch`, posted to the webhook);
// with auto-eject on, the EjectionPolicy's decisions are carried out through the proxy API
// (/instances/remove, /instances/add), noted in the membership table and written to the audit log,
// each one an event as well. The console and pdctl watch run the same class.
namespace pd {

class AuditLog;
class MembershipReconciler;
class ProxyClient;
class ScaleRunner;
struct ScaleContext;
class StateTracker;
class Triage;

class Watchdog final : public QObject {
    Q_OBJECT
public:
    Watchdog(StateTracker *tracker, Triage *triage, ProxyClient *proxy, MembershipReconciler *membership,
             QObject *parent = nullptr);
    ~Watchdog() override;

    // The profile's engines, in the tracker's order (their ids name them in events, their roles pick the pool).
    void setEngines(const QList<Engine> &engines);
    void setEjection(const EjectionSettings &settings);
    const EjectionPolicy &policy() const { return m_policy; }
    // Whether the proxy has /instances (v0.13+): without it nothing is ejected, and that is said once.
    void setProxyCanEject(bool can);
    void setAudit(AuditLog *audit) { m_audit = audit; } // not owned; null: no audit
    // Asked before acting: a non-empty reason (read-only console, invalid profile) holds every ejection
    // and re-add, said once per reason.
    void setVeto(std::function<QString()> veto) { m_veto = std::move(veto); }
    void setWebhook(const WebhookSettings &settings);  // an empty url: none
    // Operations for what the proxy API alone cannot do (ctx and runner not owned; both null: none):
    // re-adding a unit a busy proxy still drains (an add of it is ignored, §8.12) runs as an operation
    // whose add step takes the drain's way out (ScaleOperation::clearDrainsBeforeAdd), and with
    // `heal.enabled` a broken coupled group is restarted as one group (AutoHeal). Without them such a
    // re-add is held and said once, with the ways out.
    void setOperations(ScaleContext *ctx, ScaleRunner *runner, const AutoHealSettings &heal = {});
    AutoHeal *autoHeal() const { return m_heal.get(); }
    WebhookSender *webhook() const { return m_webhook.get(); }

    // Whether an engine in this state answered HTTP (so a later death is a death, not a slow start).
    static bool isUp(EngineState state);

    int ejections() const { return m_ejections; }

Q_SIGNALS:
    // One per transition, ejection, re-add or held guardrail: the JSON (compact, one line) and the
    // operator's line.
    void event(const QByteArray &json, const QString &line);

private:
    void problemsChanged();
    void roundDerived();
    void trackAnswers();
    void emitEvent(const nlohmann::ordered_json &json, const QString &line);
    void execute(const EjectionDecision &decision);
    // A re-add of instances the proxy still drains: through an operation, or held (false).
    bool readdThroughOperation(const EjectionDecision &decision);
    void audit(const EjectionDecision &decision, bool ok, const QString &error, qint64 elapsedMs);

    StateTracker *m_tracker;
    Triage *m_triage;
    ProxyClient *m_proxy;
    MembershipReconciler *m_membership;
    AuditLog *m_audit = nullptr;
    EngineIdOf m_engineId;
    std::function<QString()> m_veto;
    QString m_vetoSaid;
    QList<Role> m_roles;
    QList<bool> m_answered; // per engine: up at least once since the watch began
    ProblemTransitions m_transitions;
    EjectionPolicy m_policy;
    std::unique_ptr<WebhookSender> m_webhook;
    bool m_proxyCanEject = true;
    bool m_saidCannotEject = false;
    int m_ejections = 0;
    ScaleContext *m_ctx = nullptr;
    ScaleRunner *m_runner = nullptr;
    std::unique_ptr<AutoHeal> m_heal;
    QSet<QString> m_readdHeldSaid; // units whose held re-add was said
};

} // namespace pd
