// SPDX-License-Identifier: MIT
#include "scale/scalepanel.h"

#include "models/operationmodel.h"
#include "net/membershipreconciler.h"
#include "ops/proxyrestartscale.h"
#include "ops/scalerunner.h"
#include "scale/poolscalecontrol.h"
#include "stateappearance.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

namespace pd {

namespace {

// Colours the status column by the status text.
class StatusColourDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.column() != OperationModel::StatusColumn)
            return;
        const QString s = index.data(OperationModel::OperationStatusRole).toString();
        QColor c;
        if (s == QLatin1String("failed"))
            c = toneInk(Tone::Bad);
        else if (s == QLatin1String("succeeded") || s == QLatin1String("done"))
            c = toneInk(Tone::Good);
        else if (s == QLatin1String("running"))
            c = toneInk(Tone::Info);
        else if (s == QLatin1String("cancelled") || s == QLatin1String("skipped") || s == QLatin1String("pending"))
            c = toneInk(Tone::Muted);
        if (c.isValid())
            option->palette.setColor(QPalette::Text, c);
    }
};

} // namespace

ScalePanel::ScalePanel(ScaleContext *context, ScaleRunner *runner, QList<EngineRef> profileEngines, QWidget *parent)
    : QWidget(parent)
    , m_ctx(context)
    , m_runner(runner)
    , m_engines(std::move(profileEngines))
    , m_prefill(new PoolScaleControl(Role::Prefill, this))
    , m_decode(new PoolScaleControl(Role::Decode, this))
    , m_status(new QLabel(this))
    , m_tree(new QTreeView(this))
    , m_cancel(new QPushButton(tr("Cancel operations"), this))
    , m_model(new OperationModel(runner, this))
{
    m_status->setWordWrap(true);
    m_tree->setModel(m_model);
    m_tree->setItemDelegate(new StatusColourDelegate(m_tree));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(OperationModel::WhatColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(OperationModel::StatusColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(OperationModel::DetailColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(OperationModel::StartedColumn, QHeaderView::ResizeToContents);
    m_cancel->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_prefill);
    layout->addWidget(m_decode);
    layout->addWidget(m_status);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_cancel, 0, Qt::AlignRight);

    m_confirm = [this](const ScalePlan &p, bool *override) { return confirmWithDialog(p, override); };
    for (PoolScaleControl *c : {m_prefill, m_decode})
        connect(c, &PoolScaleControl::applyRequested, this, &ScalePanel::plan);
    connect(m_cancel, &QPushButton::clicked, m_runner, &ScaleRunner::cancelAll);
    connect(m_ctx->membership, &MembershipReconciler::reconciled, this, &ScalePanel::refreshCounts);
    // An add or remove just sent, or one an interrupted operation may have sent: counted at once.
    connect(m_ctx->membership, &MembershipReconciler::intentNoted, this, &ScalePanel::refreshCounts);
    connect(m_runner, &ScaleRunner::operationAdded, this, [this](ScaleOperation *op) {
        m_tree->expand(m_model->index(m_model->rowCount() - 1, 0));
        m_tree->scrollTo(m_model->index(m_model->rowCount() - 1, 0));
        Q_UNUSED(op);
        refreshCounts();
    });
    // The pool's note names the running operation's step: it follows the steps.
    connect(m_runner, &ScaleRunner::operationChanged, this, &ScalePanel::refreshCounts);
    connect(m_runner, &ScaleRunner::operationFinished, this, [this](ScaleOperation *op) {
        m_tree->collapse(m_model->index(int(m_runner->operations().indexOf(op)), 0));
        if (op->outcome() == OperationOutcome::Failed)
            m_tree->expand(m_model->index(int(m_runner->operations().indexOf(op)), 0));
        refreshCounts();
    });
    setReadOnly(m_ctx->settings.readOnly);
    refreshCounts();
}

PoolScaleControl *ScalePanel::control(Role role) const
{
    return role == Role::Decode ? m_decode : m_prefill;
}

void ScalePanel::setReadOnly(bool readOnly)
{
    m_ctx->settings.readOnly = readOnly;
    m_prefill->setReadOnly(readOnly);
    m_decode->setReadOnly(readOnly);
}

void ScalePanel::refreshCounts()
{
    for (PoolScaleControl *c : {m_prefill, m_decode}) {
        int active = 0, waiting = 0, draining = 0, profile = 0;
        QDateTime drainSince;
        for (const EngineRef &e : std::as_const(m_engines))
            profile += e.role == c->role();
        for (const InstanceRecord &r : m_ctx->membership->records()) {
            if (r.role != c->role())
                continue;
            active += r.fact == MembershipFact::Active;
            waiting += r.fact == MembershipFact::Waiting;
            draining += r.fact == MembershipFact::Draining;
            if (r.fact == MembershipFact::Draining && r.since.isValid())
                drainSince = drainSince.isValid() ? qMin(drainSince, r.since) : r.since;
        }
        c->setMembership(active, waiting, draining, profile);
        c->setDrain(drainSince, m_ctx->membership->health().requestNum);
        const ScaleOperation *running = nullptr;
        for (const ScaleOperation *op : m_runner->operations())
            if (!running && !op->isFinished() && op->engine().role == c->role())
                running = op;
        QString what;
        if (running) {
            what = QStringLiteral("%1 %2").arg(operationKindText(running->kind()), running->engine().id);
            if (running->currentStep() >= 0 && running->currentStep() < running->steps().size())
                what += QStringLiteral(" (%1)").arg(stepLabelText(running->steps().at(running->currentStep())));
        }
        c->setBusy(running != nullptr, what);
    }
    m_cancel->setEnabled(!m_runner->isIdle());
}

void ScalePanel::plan(Role role, int target)
{
    QList<EngineRef> members;
    for (const EngineRef &e : std::as_const(m_engines))
        if (e.role == role && m_ctx->membership->fact(e.id, role) == MembershipFact::Active)
            members << e;
    m_status->setText(tr("Reading the %1 engines' load…").arg(roleName(role)));
    control(role)->setBusy(true);
    QPointer<ScalePanel> self(this);
    m_ctx->probe->poolReadings(members, [self, role, target](const PoolReadings &readings) {
        if (!self)
            return;
        self->m_plan = planPoolScale(role, target, self->m_engines, self->m_ctx->groups, *self->m_ctx->membership, readings.loads,
                                     self->m_ctx->settings, readings.notAnswering);
        if (self->m_ctx->commandLineMembership)
            ProxyRestartScale::markPlan(self->m_plan, *self->m_ctx->commandLineMembership);
        self->m_status->setText(self->m_plan.describe().section(QLatin1Char('\n'), 0, 0));
        if (self->m_plan.isNoop()) {
            // Apply changed nothing: say why, where the operator clicked (no dialog for an empty plan).
            QStringList why = self->m_plan.warnings;
            if (!self->m_plan.blocked.isEmpty())
                why.prepend(self->m_plan.blocked);
            if (why.isEmpty())
                why << ScalePanel::tr("the proxy already lists %n active %1 instance(s)", nullptr, self->m_plan.current)
                           .arg(roleName(role));
            self->m_status->setText(ScalePanel::tr("Nothing to apply: %1").arg(why.join(QStringLiteral("; "))));
            self->refreshCounts();
            return;
        }
        bool override = false;
        self->m_allowInFlight = false;
        if (!self->m_plan.isNoop() && self->m_confirm(self->m_plan, &override) && self->m_plan.canApply(override)) {
            if (self->m_plan.byProxyRestart) {
                ScaleOperation *op = self->m_runner->applyByProxyRestart(self->m_plan, override, self->m_allowInFlight);
                self->m_status->setText(op ? ScalePanel::tr("Restarting the proxy with the new lists: %1")
                                                 .arg(self->m_plan.describe().section(QLatin1Char('\n'), 0, 0))
                                           : ScalePanel::tr("Not applied."));
                self->refreshCounts();
                return;
            }
            const auto ops = self->m_runner->apply(self->m_plan, override);
            self->m_status->setText(ScalePanel::tr("%n operation(s) started: %1", nullptr, int(ops.size()))
                                        .arg(self->m_plan.describe().section(QLatin1Char('\n'), 0, 0)));
        } else if (!self->m_plan.blocked.isEmpty()) {
            // "decode can be 0 or 64: ..." stays visible after the dialog closed.
            self->m_status->setText(ScalePanel::tr("Not applied: %1").arg(self->m_plan.blocked));
        } else if (!self->m_plan.isNoop()) {
            self->m_status->setText(ScalePanel::tr("Not applied."));
        }
        self->refreshCounts();
    });
}

bool ScalePanel::confirmWithDialog(const ScalePlan &plan, bool *override)
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Scale the %1 pool").arg(roleName(plan.role)));
    auto *layout = new QVBoxLayout(&dialog);
    auto *text = new QPlainTextEdit(plan.describe(), &dialog);
    text->setReadOnly(true);
    text->setMinimumSize(560, 200);
    layout->addWidget(text);
    QCheckBox *overrideBox = nullptr;
    QCheckBox *inFlightBox = nullptr;
    if (plan.byProxyRestart) {
        inFlightBox = new QCheckBox(tr("Do not wait for the requests in flight: they fail when the proxy stops"), &dialog);
        inFlightBox->setObjectName(QStringLiteral("allowInFlightBox"));
        layout->addWidget(inFlightBox);
    }
    if (plan.needsOverride) {
        overrideBox = new QCheckBox(tr("I know this empties the %1 pool: every request fails until an instance is added").arg(roleName(plan.role)), &dialog);
        layout->addWidget(overrideBox);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, &dialog);
    QPushButton *apply = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    apply->setEnabled(plan.canApply(false));
    if (overrideBox)
        connect(overrideBox, &QCheckBox::toggled, apply, [apply, &plan](bool on) { apply->setEnabled(plan.canApply(on)); });
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    const bool ok = dialog.exec() == QDialog::Accepted;
    *override = overrideBox && overrideBox->isChecked();
    m_allowInFlight = inFlightBox && inFlightBox->isChecked();
    return ok;
}

} // namespace pd
