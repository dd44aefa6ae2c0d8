// SPDX-License-Identifier: MIT
#include "operations.h"
#include "ops/nodereachability.h"

#include "audit/auditintentfeed.h"
#include "audit/auditlog.h"
#include "charts/chartmarker.h"
#include "cluster/clusterstore.h"
#include "cluster/dpgroups.h"
#include "exec/runnerfactory.h"
#include "mainwindow.h"
#include "net/membershipjournal.h"
#include "net/membershipreconciler.h"
#include "net/profileproxyendpoint.h"
#include "net/proxyclient.h"
#include "operations/engineactionmenu.h"
#include "operations/interruptedbar.h"
#include "operations/operationspage.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/enginecontroller.h"
#include "ops/listenertimingsync.h"
#include "ops/operationjournal.h"
#include "ops/proxycommandlinemembership.h"
#include "ops/rollingrestart.h"
#include "ops/runnerenginecontrol.h"
#include "ops/scalecontext.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "poolsview.h"
#include "ssh/sshrunner.h"
#include "sshdialogs/guisshprompts.h"
#include "state/statetracker.h"
#include "stateappearance.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"
#include "triageviews/enginedetailpanel.h"
#include "triageviews/problemspanel.h"
#include "warmup/warmupdialog.h"
#include "watch/watchdog.h"

#include <QHash>
#include <QMessageBox>
#include <QStatusBar>
#include <QPushButton>
#include <QMenu>
#include <QSet>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace {

// How often each node is asked which engine processes run (and so whether it answers at all); at once
// after a profile opens. One status command per node: cheap, but a node's answer can take seconds.
constexpr int kProcessRefreshMs = 30000;
// How often the proxy's membership (/instances or its command line) is read while a profile is open.
constexpr int kMembershipReadMs = 2000;
// The newest finished operations triage reads: an older failure is history (the Operations tab keeps it).
constexpr int kOperationsForTriage = 64;

pd::SshSettings sshSettings(const OperationsSetup &setup)
{
    pd::SshSettings settings;
    settings.knownHostsPath = setup.knownHostsPath;
    return settings;
}

} // namespace

Operations::Operations(const ConsoleShared &shared, const OperationsSetup &setup, QObject *parent)
    : QObject(parent)
    , m_store(shared.store)
    , m_window(shared.window)
    , m_tracker(shared.tracker)
    , m_triage(shared.triage)
    , m_ssh(std::make_shared<pd::SshRunner>(sshSettings(setup), std::make_shared<pd::GuiSshPrompts>(shared.window)))
    , m_audit(std::make_unique<pd::AuditLog>(
          setup.auditLogPath.isEmpty() ? pd::AuditLog::defaultPath() : setup.auditLogPath))
    , m_readOnly(setup.readOnly)
{
    m_processRefresh = new QTimer(this);
    m_processRefresh->setInterval(kProcessRefreshMs);
    connect(m_processRefresh, &QTimer::timeout, this, &Operations::refreshProcesses);
    connect(m_store, &pd::ClusterStore::profileChanged, this, &Operations::rebuild);
    rebuild();
}

bool Operations::confirmLeave(const QString &what, std::function<void()> proceed)
{
    QObject::disconnect(m_waitingToLeave); // a new answer replaces an earlier "wait"
    if (!m_runner || m_runner->isIdle())
        return true;
    QStringList running;
    for (const pd::ScaleOperation *op : m_runner->operations())
        if (!op->isFinished())
            running << QStringLiteral("%1 %2").arg(op->kind(), op->engine().id);
    if (running.isEmpty())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Operations are running"),
                    tr("%n operation(s) still run: %1.\n\nTo %2 they are cancelled where they stand: an engine may be "
                       "left started but not added, or out of the proxy but not stopped. Each is recorded in the audit "
                       "log as cancelled.", nullptr, int(running.size()))
                        .arg(running.mid(0, 5).join(QStringLiteral(", ")) + (running.size() > 5 ? QStringLiteral(", …") : QString()), what),
                    QMessageBox::NoButton, m_window);
    QPushButton *wait = box.addButton(tr("Wait for them, then %1").arg(what), QMessageBox::AcceptRole);
    QPushButton *leave = box.addButton(tr("Cancel them and %1").arg(what), QMessageBox::DestructiveRole);
    QPushButton *stay = box.addButton(tr("Stay"), QMessageBox::RejectRole);
    box.setDefaultButton(stay);
    box.exec();
    if (box.clickedButton() == wait && m_runner) {
        // Nothing blocks: the console stays usable, and `proceed` runs (asking again should another
        // operation have started meanwhile) once the last operation ended. Queued: the runner that
        // signals is torn down by what proceeds.
        m_window->statusBar()->showMessage(tr("Waiting for %n operation(s) to end, then: %1", nullptr, int(running.size())).arg(what));
        m_waitingToLeave = connect(
            m_runner.get(), &pd::ScaleRunner::idle, this,
            [this, proceed = std::move(proceed)] {
                const std::function<void()> go = proceed; // disconnecting drops this lambda's copy
                QObject::disconnect(m_waitingToLeave);
                m_window->statusBar()->clearMessage();
                go();
            },
            Qt::QueuedConnection);
        return false;
    }
    return box.clickedButton() == leave;
}

Operations::~Operations()
{
    teardown();
}

void Operations::setSimControl(const QUrl &controlBase)
{
    m_simControl = controlBase;
    rebuild();
}

void Operations::teardown()
{
    m_membershipBatch.reset();
    for (const QMetaObject::Connection &c : std::as_const(m_windowConnections))
        disconnect(c);
    m_windowConnections.clear();
    if (m_runner) {
        // What is cancelled here ends with the console's part in it: write how, so the audit log never
        // just stops in the middle of an operation.
        for (const pd::ScaleOperation *op : m_runner->operations()) {
            if (op->isFinished() || !m_audit)
                continue;
            pd::AuditEntry entry;
            entry.action = op->kind() + QStringLiteral(".abandoned");
            entry.target = QStringLiteral("%1 %2").arg(pd::roleName(op->engine().role), op->engine().id);
            entry.result = QStringLiteral("cancelled");
            entry.detail = QStringLiteral("the console left the profile (reload, open or quit) while the operation ran");
            m_audit->append(entry);
        }
        m_runner->cancelAll();
    }
    if (m_page) {
        m_readOnly = m_page->isReadOnly();
        m_pageIndex = m_window->pageIndex(m_page);
    }
    delete m_page; // its tab goes with it
    m_menu.reset();
    m_intentFeed.reset();
    m_actions.reset();
    m_watchdog.reset();
    if (m_membership)
        m_membership->stop();
    if (m_journal && !m_journal->flush())
        qWarning("%s", qPrintable(m_journal->lastError()));
    m_journal.reset();
    m_runner.reset();
    m_operationJournal.reset();
    m_context.reset();
    m_probe.reset();
    m_control.reset();
    m_controller.reset();
    m_membership.reset();
    m_proxy.reset();
}

void Operations::rebuild()
{
    teardown();
    if (!m_store->hasProfile())
        return;
    const pd::Profile &profile = m_store->profile();

    m_proxy = std::make_unique<pd::ProxyClient>();
    const pd::ProxyEndpoint endpoint = pd::profileProxyEndpoint(profile);
    m_proxy->setEndpoint(endpoint);

    m_membership = std::make_unique<pd::MembershipReconciler>(m_proxy.get());
    // Its /healthcheck reads are the proxy's health too: Problems and this tab never disagree for a
    // poll interval about whether the proxy answers (the tracker keeps the newest of both sources).
    connect(m_membership.get(), &pd::MembershipReconciler::reconciled, this, [this] {
        if (m_membership && m_membership->health().when.isValid())
            m_tracker->applyProxyHealth(m_membership->health());
    });
    const QList<pd::EngineRef> refs = pd::engineRefs(profile);
    QList<QPair<QString, pd::Role>> configured;
    QHash<QString, int> indexOf;
    for (int i = 0; i < refs.size(); ++i) {
        configured.append({refs.at(i).id, refs.at(i).role});
        indexOf.insert(refs.at(i).id, i);
    }
    m_membership->setConfigured(configured);
    // A simulated cluster is new each run: only a real proxy's pending adds and drains are remembered.
    if (!m_simControl.isValid()) {
        const QString proxyBase = endpoint.base.toString();
        m_journal = std::make_unique<pd::MembershipJournal>(pd::MembershipJournal::pathFor(proxyBase), proxyBase);
        QString journalError;
        if (!m_journal->attach(m_membership.get(), &journalError))
            m_window->showNote(tr("Membership journal not read: %1").arg(journalError));
    }
    // One reading of the proxy's lists reaches the tracker as one change, however many engines it moved.
    connect(m_membership.get(), &pd::MembershipReconciler::reconciling, this,
        [this] { m_membershipBatch.emplace(m_tracker); });
    connect(m_membership.get(), &pd::MembershipReconciler::reconciled, this, [this] { m_membershipBatch.reset(); });
    connect(m_membership.get(), &pd::MembershipReconciler::factChanged, this,
            [this, indexOf](const QString &id, pd::Role, pd::MembershipFact fact) {
                const int engine = indexOf.value(id, -1);
                if (engine >= 0 && engine < m_tracker->engineCount())
                    m_tracker->setMembership(engine, fact);
            });

    auto runners = std::make_shared<pd::DefaultRunnerFactory>();
    m_ssh->registerProfile(profile); // identity files and jump hosts per node
    runners->setRemoteRunner(m_ssh);
    m_controller = std::make_unique<pd::EngineController>(profile, runners);
    connect(m_controller.get(), &pd::EngineController::engineProcessChanged, this,
            [this, indexOf](const QString &id, pd::ProcessFact fact, qint64 pid) {
                const int engine = indexOf.value(id, -1);
                if (engine >= 0 && engine < m_tracker->engineCount())
                    m_tracker->setProcess(engine, fact, pid > 0 ? QStringLiteral("PID %1").arg(pid) : QString());
            });
    connect(m_controller.get(), &pd::EngineController::operationFinished, this,
        [this, indexOf](const pd::OperationSummary &summary) {
            // An engine started outside pdconsole is running all the same: say so, with its PID, command line and log.
            // Every engine of a cluster the operators started themselves is foreign: one change for the round.
            const pd::StateTracker::FactBatch batch(m_tracker);
            for (const pd::ProcessOutcome &o : summary.outcomes) {
                const int engine = indexOf.value(o.id, -1);
                if (o.foreign && engine >= 0 && engine < m_tracker->engineCount()) {
                    m_tracker->setProcess(engine, o.process, o.detail);
                    if (!o.foreignLog.isEmpty())
                        Q_EMIT engineLogFound(engine, o.foreignLog);
                }
            }
            if (summary.action != pd::ProcessAction::Status)
                return;
            // A node is unreachable when the status command of its engines could not run there.
            const pd::NodeReachability reach = pd::nodeReachability(m_store->profile(), summary.outcomes);
            m_triage->setNodesSsh(reach.answered, reach.unreachable);
        });
    if (m_simControl.isValid())
        m_control = std::make_unique<pd::SimClusterEngineControl>(m_simControl);
    else
        m_control = std::make_unique<pd::RunnerEngineControl>(m_controller.get());

    m_probe = std::make_unique<pd::EngineProbe>();
    // Engines started with --api-key answer /v1/models only with it: the same token pdctl's probe sends.
    m_probe->setBearerToken(endpoint.bearerToken);
    m_probe->setTls(profile.tls.engines, endpoint.extraCaCertificates);
    m_context = std::make_unique<pd::ScaleContext>();
    m_context->proxy = m_proxy.get();
    m_context->membership = m_membership.get();
    m_context->control = m_control.get();
    m_context->probe = m_probe.get();
    m_context->audit = m_audit.get();
    // Every operation's intent is on disk before it acts, shared with pdctl: one cut short by a kill is
    // found by the next run (the Operations tab's red bar) instead of forgotten.
    {
        const QString proxyBase = endpoint.base.toString();
        m_operationJournal
            = std::make_unique<pd::OperationJournal>(pd::OperationJournal::pathFor(proxyBase), proxyBase);
        m_context->journal = m_operationJournal.get();
    }

    // A profile with validation errors is never acted on (pdctl refuses it too): its values reach shells.
    m_invalidProfile = m_store->errorCount() > 0;
    m_context->settings.profileErrors = m_store->errorCount(); // refused in core whatever read-only says
    m_context->settings.readOnly = m_readOnly || m_invalidProfile;
    if (m_invalidProfile)
        m_window->showNote(tr("The profile has %n error(s): every change to the cluster is refused until it validates "
                              "(Cluster ▸ Validate Profile, F7)", nullptr, m_store->errorCount()));
    pd::setScaleContextProfile(*m_context, profile);
    // The monitor's reading of a group decides whether its restart drains it (a broken group never drains).
    m_context->isGroupBroken
        = [tracker = m_tracker](const QString &groupId) { return tracker->isGroupBroken(groupId); };
    // Group restarts and scale-outs that bring back instances a busy proxy still drains restart the proxy
    // with its current lists after drainFinaliseWaitMs: the confirmed plan says so (EngineActions, ScalePlan).
    m_context->settings.restartProxyForDrains = true;
    m_context->intentOf = [tracker = m_tracker, indexOf](const QString &engineId) {
        const int engine = indexOf.value(engineId, -1);
        return engine >= 0 && engine < tracker->engineCount() ? tracker->facts(engine).intent
                                                              : pd::OperatorIntent::None;
    };
    m_context->requestsHeldBy = [tracker = m_tracker, indexOf](const QString &engineId) -> std::optional<double> {
        const int engine = indexOf.value(engineId, -1);
        if (engine < 0 || engine >= tracker->engineCount())
            return std::nullopt;
        const pd::EngineFacts &f = tracker->facts(engine);
        if (!f.hasCounters || f.http != pd::HttpFact::Ok)
            return std::nullopt;
        return f.running + f.waiting;
    };
    if (m_membership->listenerTiming().source != pd::ProxyListenerTiming::Source::RunningProxy)
        m_membership->setListenerTiming(m_context->plannedListenerTiming, m_context->settings.listedMarginMs);
    m_runner = std::make_unique<pd::ScaleRunner>(m_context.get());
    // What the operator does on purpose (stop, scale-in, drain, start again) is a fact of the engine: its
    // silence afterwards reads as stopped, not as a crash.
    connect(m_runner.get(), &pd::ScaleRunner::intentDeclared, this,
            [this, indexOf](const pd::EngineRef &e, pd::OperatorIntent intent, const QString &detail) {
                const int engine = indexOf.value(e.id, -1);
                if (engine >= 0 && engine < m_tracker->engineCount())
                    m_tracker->setIntent(engine, intent, detail);
            });
    wireOperationOutcomes(indexOf);
    // The same intents written by another process (pdctl scale in a terminal, another console) through
    // the shared audit log; this console's own lines repeat what it already knows and change nothing.
    m_intentFeed = std::make_unique<pd::AuditIntentFeed>(m_audit->path());
    connect(m_intentFeed.get(), &pd::AuditIntentFeed::intentRead, this, [this, indexOf](const pd::AuditIntent &i) {
        const int engine = indexOf.value(i.engineId, -1);
        if (engine < 0 || engine >= m_tracker->engineCount() || m_tracker->facts(engine).intent == i.intent)
            return;
        m_tracker->setIntent(engine, i.intent, tr("%1, by %2").arg(i.detail, i.who), i.atMs);
    });
    m_intentFeed->start();
    m_actions = std::make_unique<pd::EngineActions>(m_context.get(), m_runner.get());

    m_page = new pd::OperationsPage(m_context.get(), m_runner.get(), refs, m_audit->path());
    m_window->addPage(m_page, tr("&Operations"), m_pageIndex);
    wireInterruptedOperations(indexOf);
    connect(m_membership.get(), &pd::MembershipReconciler::restartDetected, m_page, &pd::OperationsPage::offerRestore);
    connect(m_page, &pd::OperationsPage::warmUpRequested, this,
            [this, endpoint = pd::profileProxyEndpoint(profile), model = profile.decode.servedModelName] {
                auto *dialog = new pd::WarmUpDialog(endpoint, model, m_audit.get(), m_window);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                dialog->show();
            });
    wireWindow(refs);
    pd::syncListenerTiming(*m_context); // WAITING is judged by what the running proxy was started with
    pd::syncCommandLineMembership(*m_context); // a proxy without /instances: its command line is its membership
    m_membership->start(kMembershipReadMs);
    rebuildWatchdog();
    // The demo's engines live in pdsim's process: there is nothing to find on the nodes.
    if (m_simControl.isValid()) {
        m_processRefresh->stop();
    } else {
        m_controller->rediscover(); // restarting the console loses nothing, never starts a second copy
        m_processRefresh->start();
    }
}

void Operations::wireOperationOutcomes(const QHash<QString, int> &indexOf)
{
    // A failed operation is a problem until an operation succeeds on its engines (findproblems.cpp): on
    // every end, triage gets the newest finished operations.
    m_endedOperations.clear();
    m_interruptedOperations.clear();
    m_triage->setOperations({});
    connect(m_runner.get(), &pd::ScaleRunner::operationFinished, this, [this, indexOf] {
        m_endedOperations.clear();
        const QList<pd::ScaleOperation *> &all = m_runner->operations();
        for (qsizetype i = all.size() - 1; i >= 0 && m_endedOperations.size() < kOperationsForTriage; --i) {
            const pd::ScaleOperation *op = all.at(i);
            // A cancelled operation is neither a failure nor a success on its engines.
            if (op->outcome() != pd::OperationOutcome::Succeeded && op->outcome() != pd::OperationOutcome::Failed)
                continue;
            pd::TriageOperation t;
            t.kind = op->kind();
            if (const auto *group = qobject_cast<const pd::DpGroupOperation *>(op))
                t.group = group->groupId();
            t.target = !t.group.isEmpty()
                ? t.group
                : QStringLiteral("%1 %2").arg(pd::roleName(op->engine().role), op->engine().id);
            t.summary = op->summary();
            t.finishedAtMs = op->finishedAt().toMSecsSinceEpoch();
            t.failed = op->outcome() == pd::OperationOutcome::Failed;
            for (const QString &id : op->engineIds())
                if (const int engine = indexOf.value(id, -1); engine >= 0)
                    t.engines.append(engine);
            m_endedOperations.append(t);
        }
        m_triage->setOperations(m_endedOperations + m_interruptedOperations);
    });
}

void Operations::wireInterruptedOperations(const QHash<QString, int> &indexOf)
{
    // An operation a killed console or pdctl left cut short is a problem until it is repaired or forgotten.
    connect(m_page->interruptedBar(), &pd::InterruptedOperationsBar::changed, this,
        [this, indexOf](const QList<pd::OperationRecord> &records) {
            m_interruptedOperations.clear();
            for (const pd::OperationRecord &r : records) {
                pd::TriageOperation t;
                t.kind = r.kind;
                t.group = r.kind.startsWith(QLatin1String("group-")) ? r.unit : QString();
                t.target = !t.group.isEmpty() ? t.group : QStringLiteral("%1 %2").arg(pd::roleName(r.role), r.unit);
                t.summary = pd::describeInterrupted(r);
                t.finishedAtMs = r.updated.toMSecsSinceEpoch();
                t.failed = true;
                t.interrupted = true;
                for (const QString &id : r.engines)
                    if (const int engine = indexOf.value(id, -1); engine >= 0)
                        t.engines.append(engine);
                m_interruptedOperations.append(t);
            }
            m_triage->setOperations(m_endedOperations + m_interruptedOperations);
        });
}

void Operations::wireWindow(const QList<pd::EngineRef> &refs)
{
    const pd::Profile &profile = m_store->profile();
    m_menu = std::make_unique<pd::EngineActionMenu>(m_actions.get(), refs, m_window);
    QStringList nodeNames;
    QList<QList<int>> nodeEngines(profile.nodes.size());
    for (const pd::Node &n : profile.nodes)
        nodeNames << n.name;
    const QList<pd::Engine> engines = profile.engines();
    for (int i = 0; i < engines.size(); ++i)
        nodeEngines[engines.at(i).nodeIndex].append(i);
    m_menu->setNodeNames(nodeNames);
    m_menu->setNodeEngines(nodeEngines);
    connect(m_menu.get(), &pd::EngineActionMenu::note, m_window, &pd::MainWindow::showNote);
    connect(m_page, &pd::OperationsPage::note, m_window, &pd::MainWindow::showNote);
    connect(m_page, &pd::OperationsPage::auditFailed, this, [this](const QString &error) {
        m_window->showNote(tr("Audit log not written, changes refused until acknowledged (Operations tab): %1").arg(error));
    });
    connect(m_page->proxyActions(), &pd::ProxyActions::finished, this, [this](pd::ProxyAction action, bool ok, const QString &) {
        m_tracker->recordAction(-1, -1, ok ? tr("proxy %1 done").arg(pd::proxyActionName(action))
                                           : tr("proxy %1 failed").arg(pd::proxyActionName(action)));
    });
    connect(m_menu.get(), &pd::EngineActionMenu::logRequested, this, &Operations::logRequested);
    connect(m_menu.get(), &pd::EngineActionMenu::nodeChecksRequested, this, &Operations::nodeChecksRequested);
    pd::TopologyView *topology = m_window->topologyPanel()->view();
    connect(m_menu.get(), &pd::EngineActionMenu::selectRequested, topology, &pd::TopologyView::setSelectedEngines);

    // A restart of active engines runs as a rolling restart: its progress where the operator looks (the
    // status bar) and on the Operations tab, with Resume and Cancel when it pauses.
    connect(m_actions.get(), &pd::EngineActions::rollingRestartStarted, this, [this](pd::RollingRestart *restart) {
        m_page->adoptRollingRestart(restart);
        m_window->showNote(tr("Restart: %n engine(s), one at a time; progress on the Operations tab", nullptr, restart->total()));
        connect(restart, &pd::RollingRestart::progressed, this, [this](int done, int total, const QString &line) {
            m_window->showNote(tr("Restart %1 of %2: %3").arg(done).arg(total).arg(line));
        });
        connect(restart, &pd::RollingRestart::paused, this, [this](const QString &reason) {
            m_window->showError(tr("Restart paused"), {reason, tr("Resume or cancel it on the Operations tab.")});
        });
        connect(restart, &pd::RollingRestart::finished, this, [this, restart] {
            m_window->showNote(tr("Restart finished: %1 of %2 engine(s) restarted").arg(restart->done()).arg(restart->total()));
        });
    });
    // Every action becomes an event on the engine's timeline.
    connect(m_actions.get(), &pd::EngineActions::operationStarted, this, [this, refs](pd::ScaleOperation *op) {
        const int engine = int(refs.indexOf(op->engine()));
        m_tracker->recordAction(engine, -1, tr("%1 started").arg(pd::operationKindText(op->kind())));
    });

    m_windowConnections << connect(topology, &pd::TopologyView::contextMenuRequested, this,
                                   [this, topology](int engine, int node, const QPoint &at) {
                                       const QList<int> selected = engine >= 0 ? topology->selectedEngines() : QList<int>{};
                                       if (selected.isEmpty() && node < 0)
                                           return;
                                       m_menu->buildMenu(selected, node, topology)->popup(at);
                                   });
    m_windowConnections << connect(topology, &pd::TopologyView::proxyContextMenuRequested, this,
                                   [this, topology](const QPoint &at) { buildProxyMenu(topology)->popup(at); });
    if (pd::EngineDetailPanel *detail = m_window->engineDetail()) {
        detail->setLogAvailable(true);
        detail->setActionsAvailable(!m_context->settings.readOnly, refusalReason());
        m_windowConnections << connect(detail, &pd::EngineDetailPanel::actionRequested, this,
                                       [this](pd::EngineAction action, int engine) { m_menu->trigger(action, {engine}); });
        m_windowConnections << connect(detail, &pd::EngineDetailPanel::logRequested, this, &Operations::logRequested);
    }
    if (pd::ProblemsPanel *problems = m_window->problemsPanel()) {
        problems->setRemoveAvailable(!m_context->settings.readOnly, refusalReason());
        problems->setRestartGroupAvailable(!m_context->settings.readOnly, refusalReason());
        // "Restart group" on a broken DP group: the same plan, confirmation and run as the engine menu's
        // "Restart the whole DP group" (drain out, stop all, start all together, wait, add all).
        m_windowConnections << connect(problems, &pd::ProblemsPanel::restartGroupRequested, this, [this](const QString &groupId) {
            const pd::DpGroups groups(m_store->profile());
            const pd::DpGroup *group = groups.find(groupId);
            if (!group || group->engines.isEmpty()) {
                m_window->showNote(tr("No DP group %1 in this profile").arg(groupId));
                return;
            }
            m_menu->trigger(pd::EngineAction::RestartGroup, {group->engines.first()}, tr("DP group %1").arg(groupId));
        });
        // "Remove from proxy" on dead instances: the engine menu's action, so the same plan, confirmation,
        // WAITING guard (§8.1), last-instance rule and one-operation-per-engine serialisation apply.
        m_windowConnections << connect(problems, &pd::ProblemsPanel::removeDeadRequested, this, [this](const QList<int> &dead) {
            m_menu->trigger(pd::EngineAction::RemoveFromProxy, dead, tr("dead instances"));
        });
    }
    connect(m_page, &pd::OperationsPage::readOnlyChanged, this, [this](bool readOnly) {
        m_readOnly = readOnly;
        m_context->settings.readOnly = m_readOnly || m_invalidProfile;
        const bool refused = m_context->settings.readOnly;
        if (pd::EngineDetailPanel *detail = m_window->engineDetail())
            detail->setActionsAvailable(!refused, refusalReason());
        if (pd::ProblemsPanel *problems = m_window->problemsPanel()) {
            problems->setRemoveAvailable(!refused, refusalReason());
            problems->setRestartGroupAvailable(!refused, refusalReason());
        }
        m_window->showNote(readOnly ? tr("Read-only: every change to the cluster is refused") : tr("Read-only off"));
    });
    connect(m_runner.get(), &pd::ScaleRunner::markerAdded, this, &Operations::updateMarkers);
    updateMarkers();
}

QMenu *Operations::selectionMenu(QWidget *parent) const
{
    const QList<int> selected = m_window->topologyPanel()->view()->selectedEngines();
    return selected.isEmpty() || !m_menu ? nullptr : m_menu->buildMenu(selected, -1, parent);
}

void Operations::setWatchSettings(const pd::EjectionSettings &ejection, const QString &webhookUrl)
{
    m_ejection = ejection;
    m_webhookUrl = webhookUrl;
    rebuildWatchdog();
}

void Operations::rebuildWatchdog()
{
    m_watchdog.reset();
    if (!m_proxy || !m_membership || !m_store->hasProfile())
        return;
    m_watchdog = std::make_unique<pd::Watchdog>(m_tracker, m_triage, m_proxy.get(), m_membership.get());
    m_watchdog->setEngines(m_store->engines());
    m_watchdog->setEjection(m_ejection);
    m_watchdog->setAudit(m_audit.get());
    pd::WebhookSettings webhook;
    webhook.url = QUrl(m_webhookUrl);
    m_watchdog->setWebhook(webhook);
    // Re-adds of units a busy proxy still drains, and auto-heal when it is on, run as operations of this
    // console (the same runner, so a heal never overlaps an operator's operation).
    pd::AutoHealSettings heal;
    heal.enabled = m_ejection.enabled && m_ejection.autoHeal;
    heal.brokenPolls = m_ejection.badPolls;
    heal.maxPerHour = m_ejection.healsPerHour;
    m_watchdog->setOperations(m_context.get(), m_runner.get(), heal);
    m_watchdog->setVeto([this]() -> QString {
        return m_context && m_context->settings.readOnly ? refusalReason() : QString();
    });
    m_proxy->currentCapabilities([dog = QPointer<pd::Watchdog>(m_watchdog.get())](const pd::ProxyCapabilities &caps) {
        if (dog)
            dog->setProxyCanEject(caps.hasInstancesApi || !caps.reachable);
    });
    // What the watchdog did to the cluster is said where the operator looks: the note bar and the timeline.
    connect(m_watchdog.get(), &pd::Watchdog::event, this, [this](const QByteArray &json, const QString &line) {
        const nlohmann::json j = nlohmann::json::parse(json.constData(), json.constData() + json.size(), nullptr, false);
        const std::string event = j.is_object() ? j.value("event", std::string()) : std::string();
        if (event == "appeared" || event == "cleared" || event.empty())
            return; // the Problems panel shows these
        const QString unit = QString::fromStdString(j.value("unit", std::string()));
        if (event == "ejected")
            m_window->showNote(tr("Auto-eject removed %1 from the proxy: %2").arg(unit, QString::fromStdString(j.value("reason", std::string()))));
        else if (event == "readded")
            m_window->showNote(tr("Auto-eject added %1 back to the proxy: it serves again").arg(unit));
        else if (event == "heal-started")
            m_window->showNote(tr("Auto-heal restarts %1 as one group").arg(unit));
        else if (event == "healed")
            m_window->showNote(tr("Auto-heal: %1 serves again and is routed").arg(unit));
        else if (event == "heal-failed")
            m_window->showError(tr("Auto-heal could not bring back %1").arg(unit),
                { QString::fromStdString(j.value("summary", std::string())) });
        else if (event == "eject-failed" || event == "readd-failed")
            m_window->showError(tr("Auto-eject could not change %1").arg(unit), {QString::fromStdString(j.value("error", std::string()))});
        else
            m_window->showNote(tr("Auto-eject: %1").arg(line.section(QStringLiteral("  "), 2).trimmed()));
        const QList<pd::Engine> &engines = m_store->engines();
        for (int i = 0; i < engines.size(); ++i)
            if (unit.endsWith(engines.at(i).id()))
                m_tracker->recordAction(i, -1, QString::fromStdString(event));
    });
}

QString Operations::refusalReason() const
{
    return m_invalidProfile ? tr("The profile has validation errors: fix them first") : tr("The console is in read-only mode");
}

QMenu *Operations::buildProxyMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setToolTipsVisible(true);
    const pd::Profile &profile = m_store->profile();
    menu->addSection(tr("Proxy %1:%2").arg(profile.proxy.address).arg(profile.proxy.port));
    const bool readOnly = m_context->settings.readOnly;
    const bool busy = m_page && m_page->proxyActions()->isBusy();
    for (const pd::ProxyAction action : {pd::ProxyAction::Start, pd::ProxyAction::Stop, pd::ProxyAction::Restart}) {
        QAction *a = menu->addAction(pd::OperationsPage::proxyActionText(action), this, [this, action] {
            if (m_page)
                m_page->requestProxyAction(action); // confirms a stop or restart, audits, shows progress
        });
        a->setEnabled(!readOnly && !busy);
        if (readOnly)
            a->setToolTip(refusalReason());
        else if (busy)
            a->setToolTip(tr("A proxy action is running"));
    }
    menu->addSeparator();
    menu->addAction(tr("Show log"), this, &Operations::proxyLogRequested);
    return menu;
}

void Operations::updateMarkers()
{
    QList<pd::ChartMarker> prefill, decode;
    for (const pd::OperationMarker &m : m_runner->markers()) {
        pd::ChartMarker c;
        c.ms = double(m.time.toMSecsSinceEpoch());
        c.label = m.label;
        switch (m.outcome) {
        // Light-palette inks: the charts lift marker colours on a dark background (ChartColors::lineOn).
        case pd::OperationOutcome::Succeeded:
            c.color = pd::toneInk(pd::Tone::Good, false);
            break;
        case pd::OperationOutcome::Failed:
            c.color = pd::toneInk(pd::Tone::Bad, false);
            break;
        case pd::OperationOutcome::Cancelled:
            c.color = pd::toneInk(pd::Tone::Muted, false);
            break;
        default:
            c.color = pd::toneInk(pd::Tone::Info, false);
            break;
        }
        (m.role == pd::Role::Prefill ? prefill : decode).append(c);
    }
    m_window->poolsView()->setMarkers(prefill, decode);
}

void Operations::refreshProcesses()
{
    if (m_controller && !m_controller->isBusy())
        m_controller->refreshEngines(m_controller->allEngines());
}

pd::OperationsPage *Operations::page() const
{
    return m_page;
}
