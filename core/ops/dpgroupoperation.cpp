// SPDX-License-Identifier: MIT
#include "ops/dpgroupoperation.h"

#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scaleprobe.h"

#include <QSet>

#include <memory>

namespace pd {

namespace {

// Asks something of every rank at once and calls `all` once each answered, answers in rank order.
template<typename T>
void askEach(const QList<EngineRef> &ranks, const std::function<void(const EngineRef &, std::function<void(T)>)> &ask,
    std::function<void(const QList<T> &)> all)
{
    if (ranks.isEmpty())
        return all({});
    struct State {
        QList<T> answers;
        int pending = 0;
    };
    auto state = std::make_shared<State>();
    state->answers.resize(ranks.size());
    state->pending = int(ranks.size());
    for (int i = 0; i < ranks.size(); ++i)
        ask(ranks.at(i), [state, i, all](T answer) {
            state->answers[i] = std::move(answer);
            if (--state->pending == 0)
                all(state->answers);
        });
}

struct Running {
    std::optional<bool> running;
    QString error;
};

struct Load {
    std::optional<EngineLoad> load;
    bool listening = true;
};

} // namespace

DpGroupOperation::DpGroupOperation(
    Mode mode, QString groupId, QList<EngineRef> ranks, ScaleContext *context, bool allowLastInstance, QObject *parent)
    : ScaleOperation(mode == Mode::ScaleOut ? QStringLiteral("group-scale-out")
            : mode == Mode::ScaleIn         ? QStringLiteral("group-scale-in")
                                            : QStringLiteral("group-restart"),
        // The group stands in for one engine in labels and markers: its id, its first node.
        EngineRef { groupId, ranks.isEmpty() ? Role::Decode : ranks.first().role,
            ranks.isEmpty() ? QString() : ranks.first().node, -1 },
        context, parent)
    , m_mode(mode)
    , m_groupId(std::move(groupId))
    , m_ranks(std::move(ranks))
    , m_allowLast(allowLastInstance)
{
    addStep(QStringLiteral("preflight"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Preflight"));
    addStep(QStringLiteral("remove"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Remove every rank from the proxy"));
    addStep(QStringLiteral("drain"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Drain: wait until no rank runs a request"));
    addStep(QStringLiteral("stop-ranks"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Stop every rank"));
    addStep(QStringLiteral("verify-stopped"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Verify every rank stopped"));
    addStep(QStringLiteral("start-ranks"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Start every rank at once"));
    addStep(QStringLiteral("wait-ready"),
        QT_TRANSLATE_NOOP("pd::ScaleOps", "Wait until every rank answers /v1/models and /health"));
    addStep(QStringLiteral("add"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Add every rank to the proxy"));
    addStep(QStringLiteral("wait-listed"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Wait until the proxy lists every rank"));
}

void DpGroupOperation::setAddToProxy(bool add)
{
    if (m_mode != Mode::ScaleOut)
        return;
    m_addToProxy = add;
    setKind(add ? QStringLiteral("group-scale-out") : QStringLiteral("group-start"));
}

QStringList DpGroupOperation::engineIds() const
{
    QStringList ids;
    for (const EngineRef &e : m_ranks)
        ids << e.id;
    return ids;
}

QStringList DpGroupOperation::activeIds() const
{
    QStringList ids;
    for (const EngineRef &e : m_ranks)
        if (m_ctx->membership->fact(e.id, e.role) == MembershipFact::Active)
            ids << e.id;
    return ids;
}

void DpGroupOperation::run()
{
    preflight();
}

void DpGroupOperation::preflight()
{
    begin(Preflight, QStringLiteral("checking the proxy"));
    if (m_ranks.isEmpty())
        return fail(QStringLiteral("DP group %1 has no rank in the profile").arg(m_groupId));
    auto afterCaps = guarded([this](const ProxyCapabilities &caps) {
        if (checkCancelled(QStringLiteral("nothing was done")))
            return;
        if (!caps.reachable)
            return fail(QStringLiteral("the proxy does not answer: %1").arg(caps.error));
        if (!caps.hasInstancesApi)
            return fail(QStringLiteral("this proxy (%1) has no /instances API").arg(caps.generationLabel()));
        m_ctx->membership->reconcileNow(guarded([this](bool listed) {
            if (checkCancelled(QStringLiteral("nothing was done")))
                return;
            if (!listed)
                return fail(
                    QStringLiteral("cannot read the proxy's membership: %1").arg(m_ctx->membership->lastError()));
            const Role role = m_ranks.first().role;
            QStringList waiting, inProxy;
            for (const EngineRef &e : std::as_const(m_ranks)) {
                const MembershipFact fact = m_ctx->membership->fact(e.id, role);
                if (fact == MembershipFact::Waiting)
                    waiting << e.id;
                // A draining rank (a scale-in being undone) may come back: the add step clears its drain.
                if (fact == MembershipFact::Active || fact == MembershipFact::Waiting
                    || (fact == MembershipFact::Draining && m_mode != Mode::ScaleOut))
                    inProxy << QStringLiteral("%1 (%2)").arg(e.id, membershipFactName(fact));
            }
            if (!waiting.isEmpty())
                return fail(QStringLiteral(
                    "rank(s) %1 still WAITING in the proxy: removing or re-adding now can kill the proxy's "
                    "listener. Wait until they are active or dropped")
                                .arg(waiting.join(QStringLiteral(", "))));
            if (m_mode == Mode::ScaleOut) {
                if (!inProxy.isEmpty())
                    return fail(QStringLiteral("a group starts only when none of its ranks is in the proxy: %1")
                                    .arg(inProxy.join(QStringLiteral(", "))));
                return checkRanks();
            }
            const int leaving = int(activeIds().size());
            const int others = m_ctx->membership->activeCount(role) - leaving - m_ctx->removalsInFlight.value(role);
            if (leaving > 0 && others < 1 && !m_allowLast)
                return fail(QStringLiteral(
                    "DP group %1 holds the last active instances of the %2 pool: without them every request "
                    "fails. It needs the explicit override")
                                .arg(m_groupId, roleName(role)));
            done(QStringLiteral("%1 of %2 ranks active in the proxy; %3 other active %4 instance(s)")
                     .arg(leaving)
                     .arg(m_ranks.size())
                     .arg(qMax(0, others))
                     .arg(roleName(role)));
            if (m_mode == Mode::Restart)
                return checkBroken();
            removeFromProxy();
        }));
    });
    if (m_ctx->proxy->capabilities())
        afterCaps(*m_ctx->proxy->capabilities());
    else
        m_ctx->proxy->detectCapabilities(afterCaps);
}

void DpGroupOperation::checkRanks()
{
    progress(QStringLiteral("checking the nodes"));
    // One node check per node: every rank of a node shares it.
    QList<EngineRef> perNode;
    QSet<QString> seen;
    for (const EngineRef &e : std::as_const(m_ranks))
        if (!seen.contains(e.node)) {
            seen.insert(e.node);
            perNode << e;
        }
    askEach<PreflightReport>(
        perNode,
        [this](const EngineRef &e, std::function<void(PreflightReport)> report) {
            m_ctx->control->preflight(e, guarded(report));
        },
        guarded([this](const QList<PreflightReport> &reports) {
            QStringList passed;
            for (const PreflightReport &r : reports) {
                if (!r.ok)
                    return fail(r.error);
                passed << r.passed;
            }
            askEach<Running>(
                m_ranks,
                [this](const EngineRef &e, std::function<void(Running)> report) {
                    m_ctx->control->isRunning(e, guarded([report](std::optional<bool> running, const QString &error) {
                        report({ running, error });
                    }));
                },
                guarded([this, passed](const QList<Running> &answers) {
                    m_running = 0;
                    for (int i = 0; i < answers.size(); ++i) {
                        if (!answers.at(i).running)
                            return fail(QStringLiteral("cannot tell whether %1 runs: %2")
                                            .arg(m_ranks.at(i).id, answers.at(i).error));
                        m_running += *answers.at(i).running;
                    }
                    if (m_running > 0 && m_running < m_ranks.size() && m_restartIfBroken) {
                        m_mode = Mode::Restart;
                        m_broken = true;
                        done(QStringLiteral("%1 of %2 ranks run: the group is broken; it is restarted as a whole")
                                 .arg(m_running)
                                 .arg(m_ranks.size()));
                        return removeFromProxy();
                    }
                    if (m_running > 0 && m_running < m_ranks.size())
                        return fail(QStringLiteral(
                            "%1 of %2 ranks run: the group is broken, a rank alone cannot rejoin it. Restart the whole "
                            "group")
                                        .arg(m_running)
                                        .arg(m_ranks.size()));
                    askEach<EngineReadiness>(
                        m_ranks,
                        [this](const EngineRef &e, std::function<void(EngineReadiness)> report) {
                            m_ctx->probe->readiness(e, guarded(report));
                        },
                        guarded([this, passed](const QList<EngineReadiness> &ready) {
                            m_ready = 0;
                            for (int i = 0; i < ready.size(); ++i) {
                                if (m_running == 0 && ready.at(i).listening)
                                    return fail(QStringLiteral(
                                        "port in use: something answers on %1 but the rank's process is not running")
                                                    .arg(m_ranks.at(i).id));
                                m_ready += ready.at(i).ready();
                            }
                            QStringList lines = passed;
                            lines << (m_running
                                    ? QStringLiteral("all %1 ranks already run, %2 serve").arg(m_running).arg(m_ready)
                                    : QStringLiteral("%1 ports free").arg(m_ranks.size()));
                            done(lines.join(QStringLiteral("; ")));
                            const QString why = QStringLiteral("the group is started, not restarted");
                            for (int step : { RemoveFromProxy, Drain, StopRanks, VerifyStopped })
                                skip(step, why);
                            startRanks();
                        }));
                }));
        }));
}

void DpGroupOperation::checkBroken()
{
    askEach<Running>(
        m_ranks,
        [this](const EngineRef &e, std::function<void(Running)> report) {
            m_ctx->control->isRunning(e, guarded([report](std::optional<bool> running, const QString &error) {
                report({ running, error });
            }));
        },
        guarded([this](const QList<Running> &answers) {
            QStringList gone;
            for (int i = 0; i < answers.size(); ++i)
                if (answers.at(i).running && !*answers.at(i).running)
                    gone << m_ranks.at(i).id;
            if (!gone.isEmpty() && gone.size() < m_ranks.size() && !m_broken) {
                m_broken = true;
                progress(QStringLiteral("broken: %1 of %2 ranks are not running (%3)")
                             .arg(gone.size())
                             .arg(m_ranks.size())
                             .arg(gone.join(QStringLiteral(", "))));
            }
            removeFromProxy();
        }));
}

void DpGroupOperation::removeFromProxy()
{
    if (checkCancelled(QStringLiteral("nothing was done")))
        return;
    // Draining ranks are removed again (harmless: the proxy taints a key it already taints, §2.3) and
    // drained: an operation cut short may never have got its remove to the proxy.
    m_removed.clear();
    for (const EngineRef &e : std::as_const(m_ranks)) {
        const MembershipFact fact = m_ctx->membership->fact(e.id, e.role);
        if (fact == MembershipFact::Active || fact == MembershipFact::Draining)
            m_removed << e.id;
    }
    if (m_removed.isEmpty()) {
        skip(RemoveFromProxy, QStringLiteral("no rank is in the proxy"));
        return drain();
    }
    const Role role = m_ranks.first().role;
    begin(RemoveFromProxy, QStringLiteral("POST /instances/remove with %1 ranks").arg(m_removed.size()));
    m_ctx->removalsInFlight[role] += int(m_removed.size());
    m_ctx->proxy->removeInstances(role, m_removed, guarded([this, role](const ProxyReply &reply) {
        m_ctx->removalsInFlight[role] -= int(m_removed.size());
        if (!reply.ok)
            return fail(reply.error);
        for (const QString &id : std::as_const(m_removed))
            m_ctx->membership->noteRemoveSent(id, role, reply);
        for (const EngineRef &e : std::as_const(m_ranks))
            if (m_removed.contains(e.id))
                declareIntent(e, OperatorIntent::Drain);
        done(QStringLiteral("%1 ranks out of the proxy (a busy proxy lists them draining until idle)")
                 .arg(m_removed.size()));
        drain();
    }));
}

void DpGroupOperation::drain()
{
    if (checkCancelled(QStringLiteral("the group is out of the proxy (or draining) and still running")))
        return;
    if (m_removed.isEmpty()) {
        skip(Drain, QStringLiteral("no rank was in the proxy"));
        return stopRanks();
    }
    if (m_broken) {
        // A broken group produces no tokens: its requests never finish, waiting only keeps them hanging.
        begin(Drain, QStringLiteral("counting the requests the broken group holds"));
        m_ctx->probe->loads(m_ranks, guarded([this](const QHash<QString, EngineLoad> &loads) {
            double held = 0;
            for (const EngineLoad &l : loads)
                held += l.running + l.waiting;
            skip(Drain,
                QStringLiteral("not drained: the group is broken, its ranks produce no tokens; the %1 request(s) they "
                               "hold (%2 of %3 ranks answered) fail now")
                    .arg(held, 0, 'f', 0)
                    .arg(loads.size())
                    .arg(m_ranks.size()));
            stopRanks();
        }));
        return;
    }
    begin(Drain, QStringLiteral("reading every rank's running requests"));
    m_zeroReads.clear();
    const int timeout = m_ctx->settings.idleTimeoutMs;
    auto last = std::make_shared<QString>();
    pollUntil(
        timeout,
        [this, last](Report report) {
            askEach<Load>(
                m_ranks,
                [this](const EngineRef &e, std::function<void(Load)> answer) {
                    m_ctx->probe->load(e, guarded([this, e, answer](std::optional<EngineLoad> load, const QString &) {
                        if (load)
                            return answer({ load, true });
                        // Nothing listening runs nothing.
                        m_ctx->probe->readiness(e, guarded([answer](const EngineReadiness &r) {
                            answer({ std::nullopt, r.listening });
                        }));
                    }));
                },
                guarded([this, last, report](const QList<Load> &loads) {
                    int idle = 0;
                    double running = 0;
                    for (int i = 0; i < loads.size(); ++i) {
                        const Load &l = loads.at(i);
                        const bool zero = l.load ? l.load->running == 0 && l.load->waiting == 0 : !l.listening;
                        int &reads = m_zeroReads[m_ranks.at(i).id];
                        reads = zero ? reads + 1 : 0;
                        idle += reads >= 2;
                        if (l.load)
                            running += l.load->running + l.load->waiting;
                    }
                    *last = QStringLiteral("%1 of %2 ranks idle, %3 request(s) left")
                                .arg(idle)
                                .arg(m_ranks.size())
                                .arg(running);
                    progress(*last);
                    report(idle == m_ranks.size());
                }));
        },
        [this, last, timeout](bool timedOut) {
            if (timedOut && m_mode != Mode::Restart)
                return fail(QStringLiteral("still busy after %1 s (%2); every rank was left running")
                                .arg(timeout / 1000)
                                .arg(*last));
            // A hung group never drains: its requests stopped producing tokens. The restart is its cure.
            done(timedOut ? QStringLiteral("not idle after %1 s (%2): stopped anyway, their requests fail")
                                .arg(timeout / 1000)
                                .arg(*last)
                          : QStringLiteral("no rank runs a request"));
            stopRanks();
        });
}

void DpGroupOperation::stopRanks()
{
    if (checkCancelled(QStringLiteral("the group is idle, out of the proxy (or draining), still running")))
        return;
    begin(StopRanks, QStringLiteral("%1 ranks through %2").arg(m_ranks.size()).arg(m_ctx->control->describe()));
    // From the first stop until every rank is down a cancel would leave a group half alive (its
    // survivors hang): these steps run to their end.
    setCancellable(false);
    for (const EngineRef &e : std::as_const(m_ranks))
        declareIntent(e, OperatorIntent::Stop);
    askEach<ControlResult>(
        m_ranks,
        [this](const EngineRef &e, std::function<void(ControlResult)> answer) {
            m_ctx->control->stop(e, guarded(answer));
        },
        guarded([this](const QList<ControlResult> &results) {
            QStringList errors;
            for (int i = 0; i < results.size(); ++i)
                if (!results.at(i).ok)
                    errors << QStringLiteral("%1: %2").arg(m_ranks.at(i).id, results.at(i).error);
            // A refused stop is not the end: the verify step asks the stragglers again.
            done(errors.isEmpty() ? QStringLiteral("stop accepted for every rank")
                                  : QStringLiteral("stop refused for %1").arg(errors.join(QStringLiteral("; "))));
            verifyStopped();
        }));
}

void DpGroupOperation::verifyStopped()
{
    begin(VerifyStopped, QStringLiteral("waiting for every process to end"));
    m_stragglersAsked = false;
    const int timeout = m_ctx->settings.stopTimeoutMs;
    auto last = std::make_shared<QString>();
    QElapsedTimer clock;
    clock.start();
    pollUntil(
        timeout,
        [this, last, clock, timeout](Report report) {
            askEach<Running>(
                m_ranks,
                [this](const EngineRef &e, std::function<void(Running)> answer) {
                    m_ctx->control->isRunning(e, guarded([answer](std::optional<bool> running, const QString &error) {
                        answer({ running, error });
                    }));
                },
                guarded([this, last, clock, timeout, report](const QList<Running> &answers) {
                    QList<EngineRef> still;
                    for (int i = 0; i < answers.size(); ++i)
                        if (!answers.at(i).running || *answers.at(i).running)
                            still << m_ranks.at(i);
                    *last = still.isEmpty()
                        ? QString()
                        : QStringLiteral("%1 of %2 ranks still running").arg(still.size()).arg(m_ranks.size());
                    if (!still.isEmpty()) {
                        // Survivors of a broken group may hang in a collective: ask them once more halfway.
                        if (!m_stragglersAsked && clock.elapsed() > timeout / 2) {
                            m_stragglersAsked = true;
                            for (const EngineRef &e : std::as_const(still))
                                m_ctx->control->stop(e, [](const ControlResult &) {});
                            *last += QStringLiteral("; stop sent again to the stragglers");
                        }
                        progress(*last);
                        return report(false);
                    }
                    askEach<EngineReadiness>(
                        m_ranks,
                        [this](const EngineRef &e, std::function<void(EngineReadiness)> a) {
                            m_ctx->probe->readiness(e, guarded(a));
                        },
                        guarded([this, last, report](const QList<EngineReadiness> &ready) {
                            QStringList listening;
                            for (int i = 0; i < ready.size(); ++i)
                                if (ready.at(i).listening)
                                    listening << m_ranks.at(i).id;
                            *last = listening.isEmpty()
                                ? QString()
                                : QStringLiteral("processes gone, but something still answers on %1")
                                      .arg(listening.join(QStringLiteral(", ")));
                            if (!listening.isEmpty())
                                progress(*last);
                            report(listening.isEmpty());
                        }));
                }));
        },
        [this, last, timeout](bool timedOut) {
            if (timedOut)
                return fail(QStringLiteral("not stopped after %1 s: %2").arg(timeout / 1000).arg(*last));
            done(QStringLiteral("all %1 ranks stopped").arg(m_ranks.size()));
            if (m_mode == Mode::ScaleIn) {
                const QString why = QStringLiteral("the group is scaled in");
                for (int step : { StartRanks, WaitReady, AddToProxy, WaitListed })
                    skip(step, why);
                return succeed(QStringLiteral("DP group %1 stopped: %2 ranks out of the proxy")
                                   .arg(m_groupId)
                                   .arg(m_ranks.size()));
            }
            m_running = 0;
            m_ready = 0;
            setCancellable(true);
            startRanks();
        });
}

void DpGroupOperation::startRanks()
{
    if (checkCancelled(m_mode == Mode::Restart ? QStringLiteral("every rank of the group is stopped")
                                               : QStringLiteral("nothing was done")))
        return;
    if (m_running == m_ranks.size()) {
        skip(StartRanks, QStringLiteral("every rank already runs"));
        return waitReady();
    }
    begin(StartRanks,
        QStringLiteral("%1 ranks through %2, without waiting between them")
            .arg(m_ranks.size())
            .arg(m_ctx->control->describe()));
    for (const EngineRef &e : std::as_const(m_ranks))
        declareIntent(e, OperatorIntent::None);
    askEach<ControlResult>(
        m_ranks,
        [this](const EngineRef &e, std::function<void(ControlResult)> answer) {
            m_ctx->control->start(e, guarded(answer));
        },
        guarded([this](const QList<ControlResult> &results) {
            QStringList errors;
            for (int i = 0; i < results.size(); ++i)
                if (!results.at(i).ok)
                    errors << QStringLiteral("%1: %2").arg(m_ranks.at(i).id, results.at(i).error);
            if (!errors.isEmpty()) {
                // The others would only wait for the missing rank until their rendezvous times out.
                stopAllQuietly();
                return fail(QStringLiteral("not started: %1. Every rank of the group was stopped again")
                                .arg(errors.join(QStringLiteral("; "))));
            }
            done(QStringLiteral("start accepted for all %1 ranks").arg(m_ranks.size()));
            // Until the group serves, a cancel stops what this operation started: a half-formed group
            // only waits in its rendezvous, and the console would draw its ranks as stopped.
            setCancelCleanup([this] {
                stopAllQuietly();
                return QStringLiteral("every rank this operation started was asked to stop again (the group had not "
                                      "formed)");
            });
            waitReady();
        }));
}

void DpGroupOperation::waitReady()
{
    if (checkCancelled(QStringLiteral("the group was started and is left running outside the proxy")))
        return;
    if (m_ready == m_ranks.size()) {
        skip(WaitReady, QStringLiteral("every rank already answers /v1/models and /health"));
        return addToProxy();
    }
    const int timeout = m_ctx->settings.groupReadyTimeoutMs;
    begin(WaitReady,
        QStringLiteral("the group serves when all %1 ranks joined (at most %2 s for the group)")
            .arg(m_ranks.size())
            .arg(timeout / 1000));
    auto last = std::make_shared<QString>();
    pollUntil(
        timeout,
        [this, last](Report report) {
            askEach<EngineReadiness>(
                m_ranks,
                [this](const EngineRef &e, std::function<void(EngineReadiness)> a) {
                    m_ctx->probe->readiness(e, guarded(a));
                },
                guarded([this, last, report](const QList<EngineReadiness> &ready) {
                    int serving = 0;
                    QString firstDetail;
                    for (const EngineReadiness &r : ready) {
                        serving += r.ready();
                        if (!r.ready() && firstDetail.isEmpty())
                            firstDetail = r.detail.trimmed();
                    }
                    *last = QStringLiteral("%1 of %2 ranks serve").arg(serving).arg(m_ranks.size());
                    if (!firstDetail.isEmpty())
                        *last += QStringLiteral(" (%1)").arg(firstDetail);
                    progress(*last);
                    report(serving == m_ranks.size());
                }));
        },
        [this, last, timeout](bool timedOut) {
            if (timedOut) {
                stopAllQuietly();
                return fail(QStringLiteral("the group does not serve after %1 s: %2. Every rank was stopped again")
                                .arg(timeout / 1000)
                                .arg(*last));
            }
            setCancelCleanup(nullptr); // the group serves: a cancel from here leaves it serving
            done(QStringLiteral("all %1 ranks answer /v1/models and /health").arg(m_ranks.size()));
            addToProxy();
        });
}

void DpGroupOperation::addToProxy()
{
    if (checkCancelled(QStringLiteral("the group runs and serves, but is not in the proxy")))
        return;
    if (!m_addToProxy) {
        skipFrom(AddToProxy, QStringLiteral("start only: not added"));
        return succeed(
            QStringLiteral("DP group %1 serves: %2 ranks %3; not in the proxy (add them when wanted)")
                .arg(m_groupId)
                .arg(m_ranks.size())
                .arg(m_running == m_ranks.size() ? QStringLiteral("were already running") : QStringLiteral("started")));
    }
    const Role role = m_ranks.first().role;
    begin(AddToProxy, QStringLiteral("POST /instances/add with %1 ranks").arg(m_ranks.size()));
    // Ranks the proxy still drains (a scale-in undone, a restart under traffic) must leave its lists first.
    clearDrainsBeforeAdd(role, engineIds(), guarded([this](bool relisted) {
        if (!relisted) {
            progress(QStringLiteral("POST /instances/add with %1 ranks").arg(m_ranks.size()));
            return sendAdd();
        }
        done(QStringLiteral("listed again by the restarted proxy's command line; %1").arg(m_relaunchNote));
        waitListed();
    }));
}

void DpGroupOperation::sendAdd()
{
    const Role role = m_ranks.first().role;
    m_ctx->proxy->addInstances(role, engineIds(), guarded([this, role](const ProxyReply &reply) {
        if (!reply.ok)
            return fail(reply.error);
        for (const EngineRef &e : std::as_const(m_ranks))
            m_ctx->membership->noteAddSent(e.id, role, reply);
        done(QStringLiteral("accepted (the proxy said \"%1\"; only its lists count)").arg(reply.message));
        waitListed();
    }));
}

void DpGroupOperation::waitListed()
{
    const Role role = m_ranks.first().role;
    const int deadline = m_ctx->membership->waitingDeadlineMs();
    begin(WaitListed,
        QStringLiteral("waiting for the proxy's listener (at most %1 s)").arg(deadline / 1000.0, 0, 'f', 1));
    auto missing = std::make_shared<QStringList>();
    pollUntil(
        deadline,
        [this, role, missing](Report report) {
            m_ctx->membership->reconcileNow(guarded([this, role, missing, report](bool) {
                missing->clear();
                bool dropped = false;
                for (const EngineRef &e : std::as_const(m_ranks)) {
                    const MembershipFact fact = m_ctx->membership->fact(e.id, role);
                    if (fact != MembershipFact::Active)
                        *missing << QStringLiteral("%1 (%2)").arg(e.id, membershipFactName(fact));
                    dropped |= fact == MembershipFact::Dropped;
                }
                progress(
                    QStringLiteral("%1 of %2 ranks active").arg(m_ranks.size() - missing->size()).arg(m_ranks.size()));
                report(missing->isEmpty() || dropped);
            }));
        },
        [this, missing](bool) {
            if (!missing->isEmpty())
                return fail(QStringLiteral("not active in the proxy: %1").arg(missing->join(QStringLiteral(", "))));
            done(QStringLiteral("every rank active in the proxy's list"));
            succeed(QStringLiteral("DP group %1 serves: %2 ranks %3 and listed by the proxy")
                        .arg(m_groupId)
                        .arg(m_ranks.size())
                        .arg(m_mode == Mode::Restart ? QStringLiteral("restarted") : QStringLiteral("started")));
        });
}

void DpGroupOperation::stopAllQuietly()
{
    for (const EngineRef &e : std::as_const(m_ranks)) {
        declareIntent(e, OperatorIntent::Stop);
        m_ctx->control->stop(e, [](const ControlResult &) {});
    }
}

} // namespace pd
