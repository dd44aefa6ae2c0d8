// SPDX-License-Identifier: MIT
#pragma once

#include "ops/engineactions.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QMenu;
class QWidget;

// The console's engine actions where an operator finds them: a context menu for the topology's
// selection or a node, and the detail panel's buttons. Each request is planned (EngineActions::plan),
// shown and confirmed when it stops or takes out something serving (or skips engines, or needs the
// last-instance override), then run; what happens next is in the Operations tab's progress tree.
// GUI thread. The confirmation is a seam (setConfirm) that tests pre-answer.
namespace pd {

class EngineActionMenu final : public QObject {
    Q_OBJECT
public:
    // Returns true to run; sets *overrideLastInstance when the operator ticked the override.
    using Confirm = std::function<bool(const EngineActionPlan &plan, bool *overrideLastInstance)>;

    EngineActionMenu(
        EngineActions *actions, QList<EngineRef> engines, QWidget *dialogParent, QObject *parent = nullptr);

    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    // Node names, by node index, for menus and scopes.
    void setNodeNames(const QStringList &names) { m_nodeNames = names; }
    // The engines of each node (indexes into the engines given to the constructor).
    void setNodeEngines(const QList<QList<int>> &nodeEngines) { m_nodeEngines = nodeEngines; }

    // Plans, confirms and runs. Returns whether anything was started.
    bool trigger(EngineAction action, const QList<int> &engines, const QString &scope = {});

    // A menu for engines (the selection) or, with engines empty, for a node; the caller execs it.
    QMenu *buildMenu(const QList<int> &engines, int node, QWidget *parent);

    static QString actionText(EngineAction action); // translated menu text

Q_SIGNALS:
    void logRequested(int engine);
    void nodeChecksRequested(int node);
    void selectRequested(const QList<int> &engines);
    // One line for the status bar: what was started, or why nothing was.
    void note(const QString &text);

private:
    bool confirmWithDialog(const EngineActionPlan &plan, bool *overrideLastInstance);
    void addActions(QMenu *menu, const QList<int> &engines, const QString &scope);

    EngineActions *m_actions;
    QList<EngineRef> m_engines;
    QPointer<QWidget> m_dialogParent;
    Confirm m_confirm;
    QStringList m_nodeNames;
    QList<QList<int>> m_nodeEngines;
};

} // namespace pd
