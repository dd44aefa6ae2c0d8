// SPDX-License-Identifier: MIT
#include "operations/engineactionmenu.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace pd {

EngineActionMenu::EngineActionMenu(
    EngineActions *actions, QList<EngineRef> engines, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_actions(actions)
    , m_engines(std::move(engines))
    , m_dialogParent(dialogParent)
{
    m_confirm = [this](const EngineActionPlan &plan, bool *override) { return confirmWithDialog(plan, override); };
}

QString EngineActionMenu::actionText(EngineAction action)
{
    switch (action) {
    case EngineAction::Start:
        return tr("Start");
    case EngineAction::StartAndAdd:
        return tr("Start and add to proxy");
    case EngineAction::Stop:
        return tr("Stop (drain first when in the proxy)");
    case EngineAction::ForceStop:
        return tr("Force stop (no drain)");
    case EngineAction::Restart:
        return tr("Restart");
    case EngineAction::AddToProxy:
        return tr("Add to proxy");
    case EngineAction::RemoveFromProxy:
        return tr("Remove from proxy");
    case EngineAction::RestartGroup:
        return tr("Restart the whole DP group");
    }
    return {};
}

bool EngineActionMenu::trigger(EngineAction action, const QList<int> &engines, const QString &scope)
{
    QList<EngineRef> refs;
    for (const int i : engines) {
        if (i >= 0 && i < m_engines.size())
            refs << m_engines.at(i);
    }
    if (refs.isEmpty())
        return false;
    const QString where = !scope.isEmpty() ? scope
        : refs.size() == 1                 ? refs.first().id
                                           : tr("%n selected engines", nullptr, int(refs.size()));
    const EngineActionPlan plan = m_actions->plan(action, refs, where);
    bool override = false;
    if (!plan.refusal.isEmpty() || plan.engines.isEmpty()) {
        // Nothing to run: say why (read-only, or every engine skipped with its reason).
        m_actions->run(plan, false); // audits a refusal
        Q_EMIT note(plan.refusal.isEmpty() ? tr("Nothing to do: %1").arg(plan.skipReasons.value(0))
                                           : tr("%1: refused, %2").arg(plan.title(), plan.refusalText()));
        return false;
    }
    const bool ask = plan.destructive || plan.needsOverride || !plan.skipped.isEmpty();
    if (ask && !m_confirm(plan, &override))
        return false;
    if (!plan.canRun(override)) {
        Q_EMIT note(tr("%1: not started, the last active instance of a pool needs the override").arg(plan.title()));
        return false;
    }
    const QList<ScaleOperation *> ops = m_actions->run(plan, override);
    Q_EMIT note(tr("%1: started; progress in the Operations tab").arg(plan.title()));
    return !ops.isEmpty() || action == EngineAction::Restart;
}

void EngineActionMenu::addActions(QMenu *menu, const QList<int> &engines, const QString &scope)
{
    const bool readOnly = m_actions->isReadOnly();
    QList<EngineRef> refs;
    for (const int i : engines)
        if (i >= 0 && i < m_engines.size())
            refs << m_engines.at(i);
    for (const EngineAction action : allEngineActions()) {
        QAction *a = menu->addAction(
            actionText(action), this, [this, action, engines, scope] { trigger(action, engines, scope); });
        QString why;
        if (readOnly) {
            why = tr("The console is in read-only mode");
        } else if (action == EngineAction::Stop || action == EngineAction::ForceStop || action == EngineAction::Restart
            || action == EngineAction::RestartGroup) {
            // Not offered as a plain action where it would break a coupled DP group (or, for "Restart the
            // whole DP group", where no chosen engine is in one): the plan says why.
            const EngineActionPlan plan = m_actions->plan(action, refs, scope);
            if (plan.engines.isEmpty() && !plan.skipped.isEmpty())
                why = plan.skipReasons.value(0);
        }
        a->setEnabled(why.isEmpty());
        if (!why.isEmpty())
            a->setToolTip(why);
    }
    menu->setToolTipsVisible(true);
}

QMenu *EngineActionMenu::buildMenu(const QList<int> &engines, int node, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (!engines.isEmpty()) {
        const QString title = engines.size() == 1 && engines.first() < m_engines.size()
            ? m_engines.at(engines.first()).label()
            : tr("%n selected engines", nullptr, int(engines.size()));
        menu->addSection(title);
        addActions(menu, engines, {});
        menu->addSeparator();
        QAction *log = menu->addAction(tr("Show log"), this, [this, engines] { Q_EMIT logRequested(engines.first()); });
        log->setEnabled(engines.size() == 1);
        return menu;
    }
    if (node >= 0 && node < m_nodeEngines.size()) {
        const QString name = m_nodeNames.value(node);
        const QList<int> ofNode = m_nodeEngines.at(node);
        menu->addSection(tr("Node %1 (%n engines)", nullptr, int(ofNode.size())).arg(name));
        menu->addAction(tr("Select its engines"), this, [this, ofNode] { Q_EMIT selectRequested(ofNode); });
        menu->addAction(tr("Run node checks"), this, [this, node] { Q_EMIT nodeChecksRequested(node); });
        menu->addSeparator();
        addActions(menu, ofNode, tr("node %1").arg(name));
    }
    return menu;
}

bool EngineActionMenu::confirmWithDialog(const EngineActionPlan &plan, bool *overrideLastInstance)
{
    QDialog dialog(m_dialogParent);
    dialog.setWindowTitle(plan.title());
    auto *layout = new QVBoxLayout(&dialog);
    auto *heading = new QLabel(QStringLiteral("<b>%1</b>").arg(plan.title().toHtmlEscaped()), &dialog);
    layout->addWidget(heading);
    auto *text = new QPlainTextEdit(&dialog);
    text->setReadOnly(true);
    QStringList lines = plan.text().split(QLatin1Char('\n'));
    lines.removeFirst(); // the title is the heading
    text->setPlainText(lines.join(QLatin1Char('\n')));
    text->setMinimumSize(560, 160);
    layout->addWidget(text);
    QCheckBox *override = nullptr;
    if (plan.needsOverride) {
        override = new QCheckBox(
            tr("Override: take the last active instance of the pool out (its requests fail until another is active)"),
            &dialog);
        layout->addWidget(override);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(plan.title());
    if (override) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
        connect(override, &QCheckBox::toggled, buttons->button(QDialogButtonBox::Ok), &QPushButton::setEnabled);
    }
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    const bool ok = dialog.exec() == QDialog::Accepted;
    if (override)
        *overrideLastInstance = override->isChecked();
    return ok;
}

} // namespace pd
