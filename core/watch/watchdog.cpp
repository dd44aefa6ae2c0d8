// SPDX-License-Identifier: MIT
#include "watch/watchdog.h"

#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/scalecontext.h"
#include "ops/scaleout.h"
#include "ops/scalerunner.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QCoreApplication>

namespace pd {

namespace {

struct WatchdogTr {
    Q_DECLARE_TR_FUNCTIONS(pd::Watchdog)
};

nlohmann::ordered_json stringArray(const QStringList &list)
{
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const QString &s : list)
        a.push_back(s.toStdString());
    return a;
}

} // namespace

Watchdog::Watchdog(StateTracker *tracker, Triage *triage, ProxyClient *proxy, MembershipReconciler *membership,
                   QObject *parent)
    : QObject(parent)
    , m_tracker(tracker)
    , m_triage(triage)
    , m_proxy(proxy)
    , m_membership(membership)
{
    connect(m_triage, &Triage::problemsChanged, this, &Watchdog::problemsChanged);
    connect(m_tracker, &StateTracker::roundDerived, this, &Watchdog::roundDerived);
}

Watchdog::~Watchdog() = default;

void Watchdog::setEngines(const QList<Engine> &engines)
{
    QStringList ids;
    m_roles.clear();
    for (const Engine &e : engines) {
        ids.append(e.id());
        m_roles.append(e.role);
    }
    m_engineId = [ids](int engine) { return ids.value(engine); };
}

void Watchdog::setEjection(const EjectionSettings &settings)
{
    m_policy.setSettings(settings);
}

void Watchdog::setProxyCanEject(bool can)
{
    m_proxyCanEject = can;
}

void Watchdog::setOperations(ScaleContext *ctx, ScaleRunner *runner, const AutoHealSettings &heal)
{
    m_ctx = ctx;
    m_runner = runner;
    m_heal.reset();
    if (!ctx || !runner || !heal.enabled)
        return;
    m_heal = std::make_unique<AutoHeal>(m_tracker, ctx, runner);
    m_heal->setSettings(heal);
    connect(m_heal.get(), &AutoHeal::event, this,
        [this](const nlohmann::ordered_json &json, const QString &line) { emitEvent(json, line); });
}

bool Watchdog::readdThroughOperation(const EjectionDecision &d)
{
    if (m_heal && m_heal->isHealing())
        return false; // the heal adds its group back itself
    QList<EngineRef> refs;
    if (m_ctx)
        for (const QString &id : d.instances)
            for (const EngineRef &e : std::as_const(m_ctx->engines))
                if (e.id == id && e.role == d.role)
                    refs << e;
    if (!m_ctx || !m_runner || refs.size() != d.instances.size()) {
        if (!m_readdHeldSaid.contains(d.unit)) {
            m_readdHeldSaid.insert(d.unit);
            const std::int64_t now = m_tracker->nowMs();
            const QString why
                = WatchdogTr::tr("the proxy still drains it: it removes it only when no request is in flight "
                                 "and ignores an add until then. Ways out: wait for a quiet moment, or "
                                 "bring it back with Scale or Add to proxy (the proxy is restarted with "
                                 "its current lists; the requests in flight then fail)");
            emitEvent({ { "event", "readd-held" }, { "at", isoTime(now).toStdString() },
                          { "unit", d.unit.toStdString() }, { "why", why.toStdString() } },
                QStringLiteral("%1  READD-HELD %2: %3").arg(isoTime(now), d.unit, why));
        }
        return false;
    }
    m_readdHeldSaid.remove(d.unit);
    ScaleOperation *op = nullptr;
    if (const DpGroup *g = m_ctx->groups.groupOfEngine(refs.first().id); g && g->coupled && refs.size() > 1)
        op = new DpGroupOperation(DpGroupOperation::Mode::ScaleOut, g->id, refs, m_ctx);
    else
        op = new ScaleOut(refs.first(), m_ctx);
    op->setIntentDetail(QStringLiteral("watch re-add"));
    connect(op, &ScaleOperation::finished, this, [this, op, d](OperationOutcome outcome) {
        const bool ok = outcome == OperationOutcome::Succeeded;
        if (!ok)
            m_policy.readdFailed(d);
        const std::int64_t now = m_tracker->nowMs();
        emitEvent({ { "event", ok ? "readded" : "readd-failed" }, { "at", isoTime(now).toStdString() },
                      { "unit", d.unit.toStdString() }, { "role", roleName(d.role).toStdString() },
                      { "instances", stringArray(d.instances) }, { "reason", d.reason.toStdString() },
                      { "through", op->kind().toStdString() }, { "summary", op->summary().toStdString() } },
            QStringLiteral("%1  %2 %3 (%4): %5 — %6")
                .arg(isoTime(now), ok ? QStringLiteral("READDED  ") : QStringLiteral("READD-FAIL"), d.unit,
                    d.instances.join(QStringLiteral(", ")), d.reason, op->summary()));
    });
    m_runner->enqueue(op);
    return true;
}

void Watchdog::setWebhook(const WebhookSettings &settings)
{
    if (settings.url.isEmpty()) {
        m_webhook.reset();
        return;
    }
    m_webhook = std::make_unique<WebhookSender>(settings);
}

void Watchdog::emitEvent(const nlohmann::ordered_json &json, const QString &line)
{
    const QByteArray compact = QByteArray::fromStdString(json.dump());
    if (m_webhook)
        m_webhook->send(compact);
    Q_EMIT event(compact, line);
}

void Watchdog::problemsChanged()
{
    const std::int64_t now = m_tracker->nowMs();
    for (const ProblemTransition &t : m_transitions.update(m_triage->problems(), now)) {
        const Problem &p = t.problem;
        const bool appeared = t.kind == ProblemTransition::Kind::Appeared;
        QString line = QStringLiteral("%1  %2  %3  %4  %5 — %6")
                           .arg(isoTime(now), appeared ? QStringLiteral("APPEARED") : QStringLiteral("CLEARED "),
                                problemSeverityName(p.severity).leftJustified(8), p.what, p.where, p.detail);
        if (appeared) {
            for (const QString &evidence : p.evidence)
                line += QStringLiteral("\n    %1").arg(evidence);
            if (!p.nextStep.isEmpty())
                line += QStringLiteral("\n    next: %1").arg(p.nextStep);
        }
        emitEvent(transitionJson(t, m_engineId), line);
    }
}

bool Watchdog::isUp(EngineState state)
{
    switch (state) {
    case EngineState::Unknown:
    case EngineState::Stopped:
    case EngineState::Starting:
    case EngineState::Unreachable:
        return false;
    default:
        return true;
    }
}

void Watchdog::trackAnswers()
{
    m_answered.resize(m_tracker->engineCount(), false);
    for (int i = 0; i < m_tracker->engineCount(); ++i)
        m_answered[i] = m_answered.at(i) || isUp(m_tracker->state(i));
}

void Watchdog::roundDerived()
{
    if (!m_policy.settings().enabled) {
        trackAnswers();
        return;
    }
    if (!m_proxyCanEject) {
        trackAnswers();
        if (!m_saidCannotEject) {
            m_saidCannotEject = true;
            const QString why = WatchdogTr::tr("auto-eject is off: the proxy has no /instances API (v0.9.1-dev); it "
                                       "can only be changed by a restart");
            emitEvent({{"event", "eject-unavailable"}, {"at", isoTime(m_tracker->nowMs()).toStdString()},
                       {"why", why.toStdString()}},
                      QStringLiteral("%1  NOTE      %2").arg(isoTime(m_tracker->nowMs()), why));
        }
        return;
    }
    trackAnswers();
    EjectionInput input;
    input.nowMs = m_tracker->nowMs();
    for (int i = 0; i < m_tracker->engineCount(); ++i) {
        EjectionEngine e;
        e.answeredBefore = m_answered.at(i);
        e.id = m_engineId ? m_engineId(i) : QString::number(i);
        e.state = m_tracker->state(i);
        e.membership = m_tracker->facts(i).membership;
        e.role = m_roles.value(i, Role::Decode);
        e.reason = m_tracker->derived(i).reason;
        input.engines.append(e);
    }
    for (int g = 0; g < m_tracker->groupCount(); ++g) {
        const DpGroup &group = m_tracker->groups().groups().at(g);
        input.groups.append({group.id, group.coupled, m_tracker->groupState(g).health, group.engines});
    }
    const EjectionRound round = m_policy.evaluate(input);
    for (const EjectionRefusal &r : round.refusals) {
        emitEvent({{"event", "eject-refused"}, {"at", isoTime(input.nowMs).toStdString()}, {"unit", r.unit.toStdString()},
                   {"why", r.why.toStdString()}},
                  QStringLiteral("%1  KEPT      %2: %3").arg(isoTime(input.nowMs), r.unit, r.why));
    }
    const QString veto = m_veto ? m_veto() : QString();
    if (!veto.isEmpty() && !round.decisions.isEmpty()) {
        for (const EjectionDecision &d : round.decisions) {
            // Not done: the policy forgets it, so it is decided again once the veto is lifted.
            if (d.action == EjectionDecision::Action::Eject)
                m_policy.ejectionFailed(d.unit);
            else
                m_policy.readdFailed(d);
        }
        if (veto != m_vetoSaid) {
            m_vetoSaid = veto;
            emitEvent({{"event", "eject-refused"}, {"at", isoTime(input.nowMs).toStdString()},
                       {"unit", round.decisions.first().unit.toStdString()}, {"why", veto.toStdString()}},
                      QStringLiteral("%1  KEPT      %2: %3").arg(isoTime(input.nowMs), round.decisions.first().unit, veto));
        }
        return;
    }
    m_vetoSaid.clear();
    for (const EjectionDecision &d : round.decisions)
        execute(d);
    if (m_heal && veto.isEmpty())
        m_heal->round();
}

void Watchdog::execute(const EjectionDecision &d)
{
    const bool eject = d.action == EjectionDecision::Action::Eject;
    if (!eject) {
        bool draining = false;
        for (const QString &id : d.instances)
            draining |= m_membership->fact(id, d.role) == MembershipFact::Draining;
        if (draining) {
            if (!readdThroughOperation(d))
                m_policy.readdFailed(d);
            return;
        }
    }
    auto done = [this, d, eject](const ProxyReply &reply) {
        if (!reply.ok) {
            if (eject)
                m_policy.ejectionFailed(d.unit);
            else
                m_policy.readdFailed(d);
        } else if (eject) {
            ++m_ejections;
        }
        audit(d, reply.ok, reply.error, reply.elapsedMs);
        const std::int64_t now = m_tracker->nowMs();
        const char *name = eject ? (reply.ok ? "ejected" : "eject-failed") : (reply.ok ? "readded" : "readd-failed");
        nlohmann::ordered_json json{{"event", name},       {"at", isoTime(now).toStdString()},
                                    {"unit", d.unit.toStdString()}, {"role", roleName(d.role).toStdString()},
                                    {"instances", stringArray(d.instances)}, {"reason", d.reason.toStdString()}};
        if (!reply.ok)
            json["error"] = reply.error.toStdString();
        const QString word = eject ? (reply.ok ? QStringLiteral("EJECTED  ") : QStringLiteral("EJECT-FAIL"))
                                   : (reply.ok ? QStringLiteral("READDED  ") : QStringLiteral("READD-FAIL"));
        emitEvent(json, QStringLiteral("%1  %2 %3 (%4): %5%6")
                            .arg(isoTime(now), word, d.unit, d.instances.join(QStringLiteral(", ")), d.reason,
                                 reply.ok ? QString() : QStringLiteral(" — ") + reply.error));
        // Last: the membership change re-ranks the problems, whose transitions follow the ejection's line.
        for (const QString &id : d.instances) {
            if (eject)
                m_membership->noteRemoveSent(id, d.role, reply);
            else
                m_membership->noteAddSent(id, d.role, reply);
        }
    };
    if (eject)
        m_proxy->removeInstances(d.role, d.instances, done);
    else
        m_proxy->addInstances(d.role, d.instances, done);
}

void Watchdog::audit(const EjectionDecision &d, bool ok, const QString &error, qint64 elapsedMs)
{
    if (!m_audit)
        return;
    AuditEntry entry;
    entry.action = d.action == EjectionDecision::Action::Eject ? QStringLiteral("watch.eject") : QStringLiteral("watch.readd");
    entry.target = d.unit;
    entry.params = {{"instances", stringArray(d.instances)}, {"role", roleName(d.role).toStdString()}};
    entry.result = ok ? QStringLiteral("ok") : QStringLiteral("failed");
    entry.detail = ok ? d.reason : QStringLiteral("%1: %2").arg(d.reason, error);
    entry.durationMs = elapsedMs;
    m_audit->append(entry);
}

} // namespace pd
