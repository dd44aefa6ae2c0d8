// SPDX-License-Identifier: MIT
#include "operations/operationspage.h"

#include "models/auditmodel.h"
#include "net/membershipreconciler.h"
#include "operations/interruptedbar.h"
#include "ops/restoreplan.h"
#include "ops/rollingrestart.h"
#include "ops/scalecontext.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scalerunner.h"
#include "scale/scalepanel.h"
#include "stateappearance.h"

#include <QCheckBox>
#include <QDateTime>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace pd {

namespace {

// The audit view re-reads the log at most this often while operations write to it.
constexpr int kAuditReloadMs = 1000;

} // namespace

OperationsPage::OperationsPage(ScaleContext *context, ScaleRunner *runner, QList<EngineRef> profileEngines,
    const QString &auditPath, QWidget *parent)
    : QWidget(parent)
    , m_ctx(context)
    , m_runner(runner)
    , m_engines(std::move(profileEngines))
    , m_readOnly(new QCheckBox(tr("&Read-only: refuse every change to the cluster"), this))
    , m_interrupted(nullptr)
    , m_restoreBar(new QWidget(this))
    , m_restoreText(new QLabel(m_restoreBar))
    , m_auditFailureBar(new QWidget(this))
    , m_auditFailureText(new QLabel(m_auditFailureBar))
    , m_scale(new ScalePanel(context, runner, m_engines, this))
    , m_floor(new QSpinBox(this))
    , m_restartPrefill(new QPushButton(tr("Rolling restart prefill…"), this))
    , m_restartDecode(new QPushButton(tr("Rolling restart decode…"), this))
    , m_rollingState(new QLabel(this))
    , m_resume(new QPushButton(tr("Resume"), this))
    , m_cancelRolling(new QPushButton(tr("Cancel restart"), this))
    , m_proxyActions(new ProxyActions(context, this))
    , m_proxyHealth(new QLabel(this))
    , m_proxyState(new QLabel(this))
    , m_startProxy(new QPushButton(proxyActionText(ProxyAction::Start), this))
    , m_stopProxy(new QPushButton(proxyActionText(ProxyAction::Stop), this))
    , m_restartProxy(new QPushButton(proxyActionText(ProxyAction::Restart), this))
    , m_audit(new AuditModel(auditPath, 2000, this))
    , m_auditView(new QTableView(this))
    , m_auditPath(new QLabel(this))
{
    setObjectName(QStringLiteral("operationsPage"));
    m_confirm = [this](const QString &title, const QString &text) {
        return QMessageBox::question(this, title, text, QMessageBox::Ok | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Ok;
    };

    m_interrupted = new InterruptedOperationsBar(context, runner, m_confirm, this);
    connect(m_interrupted, &InterruptedOperationsBar::note, this, &OperationsPage::note);

    m_readOnly->setObjectName(QStringLiteral("readOnlyBox"));
    m_readOnly->setToolTip(
        tr("Scaling, starts, stops, restarts and proxy changes are refused (and audited as refused)"));
    connect(m_readOnly, &QCheckBox::toggled, this, &OperationsPage::setReadOnly);

    buildRestoreBar();
    buildAuditFailureBar();
    QGroupBox *proxy = buildProxyGroup();
    QGroupBox *rolling = buildRollingGroup();
    QGroupBox *audit = buildAuditGroup();

    auto *split = new QSplitter(Qt::Vertical, this);
    // The pool controls' notes wrap to several lines on a crowded tab: scrolled, never clipped.
    auto *scaleArea = new QScrollArea(this);
    scaleArea->setObjectName(QStringLiteral("scaleArea"));
    scaleArea->setWidgetResizable(true);
    scaleArea->setFrameShape(QFrame::NoFrame);
    scaleArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scaleArea->setWidget(m_scale);
    split->addWidget(scaleArea);
    split->addWidget(audit);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *warmUp = new QPushButton(tr("&Warm-up / smoke test…"), this);
    warmUp->setObjectName(QStringLiteral("warmUpButton"));
    warmUp->setToolTip(
        tr("Send small completions through the proxy: success rate, TTFT and TPOT, and the proxy's silent failures"));
    connect(warmUp, &QPushButton::clicked, this, &OperationsPage::warmUpRequested);
    auto *top = new QHBoxLayout;
    top->addWidget(m_readOnly, 1);
    top->addWidget(warmUp);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(top);
    layout->addWidget(m_auditFailureBar);
    layout->addWidget(m_interrupted);
    layout->addWidget(m_restoreBar);
    layout->addWidget(proxy);
    layout->addWidget(rolling);
    layout->addWidget(split, 1);

    // The audit view follows what the operations write (a re-read at most every second).
    auto *reload = new QTimer(this);
    reload->setSingleShot(true);
    reload->setInterval(kAuditReloadMs);
    connect(reload, &QTimer::timeout, this, &OperationsPage::reloadAudit);
    connect(m_runner, &ScaleRunner::operationChanged, reload, qOverload<>(&QTimer::start));
    connect(m_runner, &ScaleRunner::operationFinished, reload, qOverload<>(&QTimer::start));
    reloadAudit();
    setReadOnly(m_ctx->settings.readOnly);
}

void OperationsPage::setConfirm(Confirm confirm)
{
    m_confirm = std::move(confirm);
    m_interrupted->setConfirm(m_confirm);
}

// The restore offer: shown when the proxy came back with other lists than before its outage.
void OperationsPage::buildRestoreBar()
{
    m_restoreBar->setObjectName(QStringLiteral("restoreBar"));
    paintAsBar(m_restoreBar, Tone::Caution);
    m_restoreText->setWordWrap(true);
    auto *restore = new QPushButton(tr("Restore membership"), m_restoreBar);
    restore->setObjectName(QStringLiteral("restoreButton"));
    auto *dismiss = new QPushButton(tr("Dismiss"), m_restoreBar);
    connect(restore, &QPushButton::clicked, this, &OperationsPage::restore);
    connect(dismiss, &QPushButton::clicked, m_restoreBar, &QWidget::hide);
    auto *bar = new QHBoxLayout(m_restoreBar);
    bar->addWidget(m_restoreText, 1);
    bar->addWidget(restore);
    bar->addWidget(dismiss);
    m_restoreBar->hide();
}

// An audit line that could not be written stops every mutating action until the operator has seen it.
void OperationsPage::buildAuditFailureBar()
{
    m_auditFailureBar->setObjectName(QStringLiteral("auditFailureBar"));
    paintAsBar(m_auditFailureBar, Tone::Bad);
    m_auditFailureText->setWordWrap(true);
    m_auditFailureText->setTextFormat(Qt::PlainText);
    m_auditFailureText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *acknowledge = new QPushButton(tr("Acknowledge"), m_auditFailureBar);
    acknowledge->setObjectName(QStringLiteral("acknowledgeAuditButton"));
    acknowledge->setToolTip(tr("Actions are allowed again; the next failed audit line stops them again"));
    connect(acknowledge, &QPushButton::clicked, this, [this] {
        if (m_ctx->audit)
            m_ctx->audit->acknowledge();
        m_auditFailureBar->hide();
    });
    auto *auditRow = new QHBoxLayout(m_auditFailureBar);
    auditRow->addWidget(m_auditFailureText, 1);
    auditRow->addWidget(acknowledge);
    m_auditFailureBar->hide();
    if (m_ctx->audit) {
        m_ctx->audit->setFailureListener([self = QPointer<OperationsPage>(this)](const QString &error) {
            if (self)
                self->showAuditFailure(error);
        });
        if (!m_ctx->audit->unacknowledgedFailure().isEmpty())
            showAuditFailure(m_ctx->audit->unacknowledgedFailure());
    }
}

// The proxy's process: what its /healthcheck says, start / stop / restart, the last outcome.
QGroupBox *OperationsPage::buildProxyGroup()
{
    auto *proxy = new QGroupBox(tr("Proxy"), this);
    proxy->setObjectName(QStringLiteral("proxyGroup"));
    m_startProxy->setObjectName(QStringLiteral("startProxyButton"));
    m_stopProxy->setObjectName(QStringLiteral("stopProxyButton"));
    m_restartProxy->setObjectName(QStringLiteral("restartProxyButton"));
    m_proxyState->setObjectName(QStringLiteral("proxyState"));
    m_proxyState->setWordWrap(true);
    m_proxyState->setTextFormat(Qt::RichText);
    m_proxyState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_proxyHealth->setWordWrap(true);
    m_proxyHealth->setTextFormat(Qt::RichText);
    connect(m_startProxy, &QPushButton::clicked, this, [this] { requestProxyAction(ProxyAction::Start); });
    connect(m_stopProxy, &QPushButton::clicked, this, [this] { requestProxyAction(ProxyAction::Stop); });
    connect(m_restartProxy, &QPushButton::clicked, this, [this] { requestProxyAction(ProxyAction::Restart); });
    connect(m_proxyActions, &ProxyActions::phaseChanged, this, &OperationsPage::showProxyPhase);
    connect(m_proxyActions, &ProxyActions::finished, this, &OperationsPage::proxyFinished);
    if (m_ctx->membership)
        connect(m_ctx->membership, &MembershipReconciler::reconciled, this, &OperationsPage::showProxyHealth);
    auto *proxyRow = new QHBoxLayout;
    proxyRow->addWidget(m_proxyHealth, 1);
    proxyRow->addWidget(m_startProxy);
    proxyRow->addWidget(m_stopProxy);
    proxyRow->addWidget(m_restartProxy);
    auto *proxyLayout = new QVBoxLayout(proxy);
    proxyLayout->addLayout(proxyRow);
    proxyLayout->addWidget(m_proxyState);
    m_proxyState->hide(); // until the first action
    showProxyHealth();
    return proxy;
}

// Rolling restart per pool.
QGroupBox *OperationsPage::buildRollingGroup()
{
    auto *rolling = new QGroupBox(tr("Rolling restart (after a config or model change)"), this);
    m_floor->setRange(0, 4096);
    m_floor->setValue(1);
    m_floor->setPrefix(tr("keep at least "));
    m_floor->setSuffix(tr(" active"));
    m_floor->setToolTip(tr("The restart never leaves fewer active instances of the pool in the proxy"));
    m_resume->setVisible(false);
    m_cancelRolling->setVisible(false);
    m_rollingState->setWordWrap(true);
    connect(m_restartPrefill, &QPushButton::clicked, this,
        [this] { startRollingRestart(Role::Prefill, m_floor->value()); });
    connect(
        m_restartDecode, &QPushButton::clicked, this, [this] { startRollingRestart(Role::Decode, m_floor->value()); });
    connect(m_resume, &QPushButton::clicked, this, [this] {
        if (m_rolling)
            m_rolling->resume();
        showRollingState();
    });
    connect(m_cancelRolling, &QPushButton::clicked, this, [this] {
        if (m_rolling)
            m_rolling->cancel();
        showRollingState();
    });
    auto *rollingRow = new QHBoxLayout;
    rollingRow->addWidget(m_floor);
    rollingRow->addWidget(m_restartPrefill);
    rollingRow->addWidget(m_restartDecode);
    rollingRow->addWidget(m_rollingState, 1);
    rollingRow->addWidget(m_resume);
    rollingRow->addWidget(m_cancelRolling);
    rolling->setLayout(rollingRow);
    return rolling;
}

// The audit log.
QGroupBox *OperationsPage::buildAuditGroup()
{
    auto *audit = new QGroupBox(tr("Audit log"), this);
    m_auditView->setObjectName(QStringLiteral("auditView"));
    m_auditView->setModel(m_audit);
    m_auditView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_auditView->setWordWrap(false);
    m_auditView->setAlternatingRowColors(true);
    m_auditView->verticalHeader()->hide();
    m_auditView->horizontalHeader()->setStretchLastSection(false);
    m_auditView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_auditView->horizontalHeader()->setSectionResizeMode(AuditModel::DetailColumn, QHeaderView::Stretch);
    m_auditPath->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *auditLayout = new QVBoxLayout(audit);
    auditLayout->addWidget(m_auditPath);
    auditLayout->addWidget(m_auditView, 1);
    return audit;
}

OperationsPage::~OperationsPage()
{
    if (m_rolling) {
        m_rolling->disconnect(this);
        m_rolling->cancel();
    }
}

void OperationsPage::setReadOnly(bool readOnly)
{
    m_scale->setReadOnly(readOnly);
    if (m_readOnly->isChecked() != readOnly)
        m_readOnly->setChecked(readOnly);
    for (QPushButton *b : { m_restartPrefill, m_restartDecode })
        b->setEnabled(!readOnly && !m_rolling);
    updateProxyButtons();
    Q_EMIT readOnlyChanged(readOnly);
}

bool OperationsPage::isReadOnly() const
{
    return m_ctx->settings.readOnly;
}

void OperationsPage::offerRestore(const ProxyLists &previous, const ProxyLists &now)
{
    m_previous = previous;
    m_now = now;
    m_restoreText->setText(
        tr("<b>The proxy restarted</b> and forgot the instances added or removed at runtime. Before: "
           "%1 prefill, %2 decode; now: %3 prefill, %4 decode. Restore adds back what is missing "
           "(engines already run) and takes out what was not there.")
            .arg(previous.prefill.size())
            .arg(previous.decode.size())
            .arg(now.prefill.size())
            .arg(now.decode.size()));
    m_restoreBar->show();
}

bool OperationsPage::isRestoreOffered() const
{
    return m_restoreBar->isVisibleTo(this);
}

void OperationsPage::restore()
{
    if (!m_previous || !m_now)
        return;
    // A plan first: whole groups, never what the operator took out on purpose; confirmed before it runs.
    const RestorePlan plan = planRestore(*m_previous, *m_now, *m_ctx, m_ctx->intentOf);
    if (!plan.isNoop()
        && !m_confirm(tr("Restore membership"),
            tr("Bring the proxy's membership back to what it routed before it restarted:\n\n%1\n\nApply?")
                .arg(plan.describe())))
        return;
    m_restoreBar->hide();
    m_previous.reset();
    if (plan.isNoop()) {
        Q_EMIT note(tr("Restore membership: nothing to do (%1)").arg(plan.describe()));
        return;
    }
    m_runner->restore(plan);
}

bool OperationsPage::startRollingRestart(Role role, int floor)
{
    if (m_rolling || m_ctx->settings.readOnly)
        return false;
    QList<EngineRef> members;
    for (const EngineRef &e : std::as_const(m_engines)) {
        if (e.role == role && m_ctx->membership->fact(e.id, role) == MembershipFact::Active)
            members << e;
    }
    if (members.isEmpty()) {
        m_rollingState->setText(tr("No active %1 instance to restart").arg(roleName(role)));
        return false;
    }
    const QString title = tr("Rolling restart of the %1 pool").arg(roleName(role));
    const QString text = tr("%1 active engines are restarted one at a time, node by node: each is drained out of the "
                            "proxy, stopped, started again, waited for and added back. At least %2 stay active; the "
                            "restart pauses on the first failure.")
                             .arg(members.size())
                             .arg(floor);
    if (!m_confirm(title, text))
        return false;
    m_rolling = new RollingRestart(members, floor, m_ctx, m_runner, this);
    connect(m_rolling, &RollingRestart::progressed, this, &OperationsPage::showRollingState);
    connect(m_rolling, &RollingRestart::paused, this, &OperationsPage::showRollingState);
    connect(m_rolling, &RollingRestart::finished, this, [this] {
        showRollingState();
        m_rolling->deleteLater();
        m_rolling = nullptr;
        setReadOnly(m_ctx->settings.readOnly);
    });
    m_rolling->start();
    setReadOnly(m_ctx->settings.readOnly);
    showRollingState();
    return true;
}

void OperationsPage::adoptRollingRestart(RollingRestart *restart)
{
    if (!restart || m_rolling)
        return;
    m_rolling = restart;
    connect(restart, &RollingRestart::progressed, this, &OperationsPage::showRollingState);
    connect(restart, &RollingRestart::paused, this, &OperationsPage::showRollingState);
    connect(restart, &RollingRestart::finished, this, [this] {
        showRollingState();
        m_rolling = nullptr; // its owner deletes it
        setReadOnly(m_ctx->settings.readOnly);
    });
    setReadOnly(m_ctx->settings.readOnly);
    showRollingState();
}

QString OperationsPage::proxyActionText(ProxyAction action)
{
    switch (action) {
    case ProxyAction::Start:
        return tr("Start proxy");
    case ProxyAction::Stop:
        return tr("Stop proxy…");
    case ProxyAction::Restart:
        return tr("Restart proxy…");
    }
    return {};
}

namespace {

QString proxyTitle(ProxyAction action)
{
    switch (action) {
    case ProxyAction::Start:
        return OperationsPage::tr("Start the proxy");
    case ProxyAction::Stop:
        return OperationsPage::tr("Stop the proxy");
    case ProxyAction::Restart:
        return OperationsPage::tr("Restart the proxy");
    }
    return {};
}

QString now()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

bool OperationsPage::requestProxyAction(ProxyAction action)
{
    const QString title = proxyTitle(action);
    auto say = [this](const QString &text) {
        m_proxyState->setText(text.toHtmlEscaped());
        m_proxyState->show();
        Q_EMIT note(text);
    };
    if (m_proxyActions->isReadOnly()) {
        m_proxyActions->run(action); // refuses, and audits the refusal
        reloadAudit();
        say(tr("%1: refused, the console is in read-only mode").arg(title));
        return false;
    }
    if (m_proxyActions->isBusy()) {
        Q_EMIT note(tr("%1: not started, another proxy action is still running").arg(title));
        return false;
    }
    if (action != ProxyAction::Start) {
        const QString where = m_ctx->proxy ? m_ctx->proxy->endpoint().base.authority() : QString();
        QString text = action == ProxyAction::Stop
            ? tr("The proxy at %1 is stopped. While it is down every request to the cluster fails, "
                 "until it is started again.")
                  .arg(where)
            : tr("The proxy at %1 is stopped and started again with the profile's command line. "
                 "Every request fails until it answers again.")
                  .arg(where);
        text += QLatin1String("\n\n")
            + tr("A started proxy knows only the instances on its command line: those added through /instances/add "
                 "are forgotten. Once it answers, the Operations tab offers to restore the membership it had.");
        if (m_ctx->membership && m_ctx->membership->lists()) {
            const ProxyLists &lists = *m_ctx->membership->lists();
            text += QLatin1String("\n\n")
                + tr("It lists %1 prefill and %2 decode instances now.")
                      .arg(lists.prefill.size())
                      .arg(lists.decode.size());
        }
        if (!m_runner->isIdle())
            text += QLatin1String("\n\n") + tr("Operations in progress fail while the proxy is down.");
        if (!m_confirm(title, text))
            return false;
    }
    QString why;
    if (!m_proxyActions->run(action, &why)) {
        say(tr("%1: not started, %2").arg(title, why));
        return false;
    }
    Q_EMIT note(tr("%1: started; progress in the Operations tab").arg(title));
    return true;
}

QString OperationsPage::proxyStateText() const
{
    return m_proxyState->isVisibleTo(this) ? m_proxyState->text() : QString();
}

void OperationsPage::showProxyPhase(ProxyActions::Phase phase)
{
    QString text;
    switch (phase) {
    case ProxyActions::Phase::Idle:
        break; // proxyFinished() says how it ended
    case ProxyActions::Phase::Stopping:
        text = tr("Stopping the proxy…");
        break;
    case ProxyActions::Phase::ConfirmingDown:
        text = tr("Proxy stopped; checking that it no longer answers…");
        break;
    case ProxyActions::Phase::Starting:
        text = tr("Starting the proxy…");
        break;
    case ProxyActions::Phase::WaitingForHealth:
        text = tr("Proxy started; waiting for its /healthcheck to answer…");
        break;
    }
    if (!text.isEmpty()) {
        m_proxyState->setText(text);
        m_proxyState->show();
    }
    updateProxyButtons();
}

void OperationsPage::proxyFinished(ProxyAction action, bool ok, const QString &detail)
{
    QString text;
    if (!ok) {
        switch (action) {
        case ProxyAction::Start:
            text = tr("%1: proxy start failed: %2");
            break;
        case ProxyAction::Stop:
            text = tr("%1: proxy stop failed: %2");
            break;
        case ProxyAction::Restart:
            text = tr("%1: proxy restart failed: %2");
            break;
        }
    } else {
        switch (action) {
        case ProxyAction::Start:
            text = tr("%1: proxy started (%2)");
            break;
        case ProxyAction::Stop:
            text = tr("%1: proxy stopped (%2); every request fails until it is started again");
            break;
        case ProxyAction::Restart:
            text = tr("%1: proxy restarted (%2)");
            break;
        }
    }
    text = text.arg(now(), detail);
    m_proxyState->setText(ok ? text.toHtmlEscaped() : toneHtml(Tone::Bad, text.toHtmlEscaped()));
    m_proxyState->show();
    updateProxyButtons();
    reloadAudit();
    Q_EMIT note(text);
}

void OperationsPage::showProxyHealth()
{
    const QString where = m_ctx->proxy ? m_ctx->proxy->endpoint().base.authority() : QString();
    if (!m_ctx->membership || !m_ctx->membership->health().when.isValid()) {
        m_proxyHealth->setText(tr("Proxy %1: /healthcheck not read yet").arg(where));
        return;
    }
    const ProxyHealth &health = m_ctx->membership->health();
    const QString at = health.when.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
    if (health.reachable)
        m_proxyHealth->setText(tr("Proxy %1: /healthcheck answers (%2): %3 prefill and %4 decode instances")
                                   .arg(where, at)
                                   .arg(health.prefillInstances)
                                   .arg(health.decodeInstances));
    else
        m_proxyHealth->setText(
            tr("Proxy %1: <b>/healthcheck does not answer</b> (%2): %3").arg(where, at, health.error.toHtmlEscaped()));
    updateProxyButtons(); // Start is for a proxy that does not answer
}

void OperationsPage::updateProxyButtons()
{
    const bool readOnly = m_ctx->settings.readOnly;
    const bool busy = m_proxyActions->isBusy();
    for (QPushButton *b : { m_startProxy, m_stopProxy, m_restartProxy }) {
        b->setEnabled(!readOnly && !busy);
        b->setToolTip(readOnly ? tr("The console is in read-only mode")
                : busy         ? tr("A proxy action is running")
                               : QString());
    }
    // A proxy that answers /healthcheck runs: Start would do nothing, Restart is what is meant.
    const bool answering
        = m_ctx->membership && m_ctx->membership->health().when.isValid() && m_ctx->membership->health().reachable;
    if (!readOnly && !busy && answering) {
        m_startProxy->setEnabled(false);
        m_startProxy->setToolTip(tr("The proxy answers /healthcheck: it runs already (Restart stops and starts it)"));
    } else if (!readOnly && !busy) {
        m_startProxy->setToolTip(
            tr("Start the proxy with the profile's command line (a running proxy is not started twice)"));
    }
    if (!readOnly && !busy) {
        m_stopProxy->setToolTip(tr("Stop the proxy: every request fails while it is down"));
        m_restartProxy->setToolTip(tr("Stop and start the proxy: it forgets the instances added at runtime"));
    }
}

RollingRestart *OperationsPage::rollingRestart() const
{
    return m_rolling;
}

void OperationsPage::showRollingState()
{
    if (!m_rolling) {
        m_resume->hide();
        m_cancelRolling->hide();
        return;
    }
    const auto state = m_rolling->state();
    QString text = tr("%1 of %2 restarted").arg(m_rolling->done()).arg(m_rolling->total());
    if (state == RollingRestart::State::Paused)
        text += tr(" — <b>paused</b>: %1").arg(m_rolling->reason().toHtmlEscaped());
    else if (state == RollingRestart::State::Finished)
        text += tr(" — done");
    else if (state == RollingRestart::State::Cancelled)
        text += tr(" — cancelled");
    m_rollingState->setText(text);
    m_resume->setVisible(state == RollingRestart::State::Paused);
    m_cancelRolling->setVisible(state == RollingRestart::State::Running || state == RollingRestart::State::Paused);
}

void OperationsPage::reloadAudit()
{
    m_audit->reload();
    QString text = tr("%1 — every change to the cluster, one JSON line each").arg(m_audit->path().toHtmlEscaped());
    if (!m_audit->error().isEmpty() && m_audit->rowCount() == 0)
        text = tr("%1 — nothing written yet").arg(m_audit->path().toHtmlEscaped());
    if (!m_audit->problems().isEmpty())
        text += QStringLiteral(" — ")
            + severityHtml(ProblemSeverity::Critical,
                tr("%n unreadable line(s), e.g. %1", nullptr, int(m_audit->problems().size()))
                    .arg(m_audit->problems().first().toHtmlEscaped()));
    m_auditPath->setText(text);
    m_auditView->resizeColumnToContents(AuditModel::ActionColumn);
    m_auditView->scrollToBottom();
}

void OperationsPage::showAuditFailure(const QString &error)
{
    m_auditFailureText->setText(
        tr("The audit log could not be written: every change to the cluster is refused until you "
           "acknowledge this.\n%1")
            .arg(error));
    m_auditFailureBar->show();
    Q_EMIT auditFailed(error);
}

} // namespace pd
