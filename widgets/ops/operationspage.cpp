// SPDX-License-Identifier: MIT
#include "ops/operationspage.h"

#include "models/auditmodel.h"
#include "net/membershipreconciler.h"
#include "ops/scalecontext.h"
#include "ops/scalerollingrestart.h"
#include "ops/scalerunner.h"
#include "scale/scalepanel.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace pd {

OperationsPage::OperationsPage(ScaleContext *context, ScaleRunner *runner, QList<EngineRef> profileEngines,
                               const QString &auditPath, QWidget *parent)
    : QWidget(parent)
    , m_ctx(context)
    , m_runner(runner)
    , m_engines(std::move(profileEngines))
    , m_readOnly(new QCheckBox(tr("&Read-only: refuse every change to the cluster"), this))
    , m_restoreBar(new QWidget(this))
    , m_restoreText(new QLabel(m_restoreBar))
    , m_scale(new ScalePanel(context, runner, m_engines, this))
    , m_floor(new QSpinBox(this))
    , m_restartPrefill(new QPushButton(tr("Rolling restart prefill…"), this))
    , m_restartDecode(new QPushButton(tr("Rolling restart decode…"), this))
    , m_rollingState(new QLabel(this))
    , m_resume(new QPushButton(tr("Resume"), this))
    , m_cancelRolling(new QPushButton(tr("Cancel restart"), this))
    , m_audit(new AuditModel(auditPath, 2000, this))
    , m_auditView(new QTableView(this))
    , m_auditPath(new QLabel(this))
{
    setObjectName(QStringLiteral("operationsPage"));
    m_confirm = [this](const QString &title, const QString &text) {
        return QMessageBox::question(this, title, text, QMessageBox::Ok | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Ok;
    };

    m_readOnly->setObjectName(QStringLiteral("readOnlyBox"));
    m_readOnly->setToolTip(tr("Scaling, starts, stops, restarts and proxy changes are refused (and audited as refused)"));
    connect(m_readOnly, &QCheckBox::toggled, this, &OperationsPage::setReadOnly);

    // The restore offer: shown when the proxy came back with other lists than before its outage.
    m_restoreBar->setObjectName(QStringLiteral("restoreBar"));
    m_restoreBar->setAutoFillBackground(true);
    QPalette warn = m_restoreBar->palette();
    warn.setColor(QPalette::Window, QColor(0xff, 0xf4, 0xce));
    warn.setColor(QPalette::WindowText, QColor(0x3c, 0x2f, 0x00));
    m_restoreBar->setPalette(warn);
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

    // Rolling restart per pool.
    auto *rolling = new QGroupBox(tr("Rolling restart (after a config or model change)"), this);
    m_floor->setRange(0, 4096);
    m_floor->setValue(1);
    m_floor->setPrefix(tr("keep at least "));
    m_floor->setSuffix(tr(" active"));
    m_floor->setToolTip(tr("The restart never leaves fewer active instances of the pool in the proxy"));
    m_resume->setVisible(false);
    m_cancelRolling->setVisible(false);
    m_rollingState->setWordWrap(true);
    connect(m_restartPrefill, &QPushButton::clicked, this, [this] { startRollingRestart(Role::Prefill, m_floor->value()); });
    connect(m_restartDecode, &QPushButton::clicked, this, [this] { startRollingRestart(Role::Decode, m_floor->value()); });
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

    // The audit log.
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

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_scale);
    split->addWidget(audit);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *warmUp = new QPushButton(tr("&Warm-up / smoke test…"), this);
    warmUp->setObjectName(QStringLiteral("warmUpButton"));
    warmUp->setToolTip(tr("Send small completions through the proxy: success rate, TTFT and TPOT, and the proxy's silent failures"));
    connect(warmUp, &QPushButton::clicked, this, &OperationsPage::warmUpRequested);
    auto *top = new QHBoxLayout;
    top->addWidget(m_readOnly, 1);
    top->addWidget(warmUp);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(top);
    layout->addWidget(m_restoreBar);
    layout->addWidget(rolling);
    layout->addWidget(split, 1);

    // The audit view follows what the operations write (a re-read at most every second).
    auto *reload = new QTimer(this);
    reload->setSingleShot(true);
    reload->setInterval(1000);
    connect(reload, &QTimer::timeout, this, &OperationsPage::reloadAudit);
    connect(m_runner, &ScaleRunner::operationChanged, reload, qOverload<>(&QTimer::start));
    connect(m_runner, &ScaleRunner::operationFinished, reload, qOverload<>(&QTimer::start));
    reloadAudit();
    setReadOnly(m_ctx->settings.readOnly);
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
    for (QPushButton *b : {m_restartPrefill, m_restartDecode})
        b->setEnabled(!readOnly && !m_rolling);
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
    m_restoreText->setText(tr("<b>The proxy restarted</b> and forgot the instances added or removed at runtime. Before: "
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
    m_runner->restore(*m_previous, *m_now, m_engines);
    m_restoreBar->hide();
    m_previous.reset();
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
        text += tr(" — <span style='color:#b3261e'>%n unreadable line(s), e.g. %1</span>", nullptr, int(m_audit->problems().size()))
                    .arg(m_audit->problems().first().toHtmlEscaped());
    m_auditPath->setText(text);
    m_auditView->resizeColumnToContents(AuditModel::ActionColumn);
    m_auditView->scrollToBottom();
}

} // namespace pd
