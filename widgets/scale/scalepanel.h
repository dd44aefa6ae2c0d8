// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaleplan.h"

#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QTreeView;

// Scaling in the console: a scale control per pool, the plan confirmation, the progress list of
// operations with their visible steps, Cancel. Plans come from planPoolScale with the engines' own
// loads; applying goes through the ScaleRunner (which audits every step).
namespace pd {

class MembershipReconciler;
class OperationModel;
class PoolScaleControl;
class ScaleRunner;

class ScalePanel final : public QWidget {
    Q_OBJECT
public:
    ScalePanel(ScaleContext *context, ScaleRunner *runner, QList<EngineRef> profileEngines, QWidget *parent = nullptr);

    // Asks the operator to confirm a plan; returns true to apply and sets *override for the
    // last-instance guard. The default shows a dialog; tests replace it.
    using Confirm = std::function<bool(const ScalePlan &plan, bool *overrideLastInstance)>;
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    void setReadOnly(bool readOnly);

    PoolScaleControl *control(Role role) const;
    OperationModel *model() const { return m_model; }

private:
    void refreshCounts();
    void plan(Role role, int target);
    bool confirmWithDialog(const ScalePlan &plan, bool *override);

    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
    bool m_allowInFlight = false; // the confirmation's "do not wait for the requests in flight" (proxy restart path)
    QList<EngineRef> m_engines;
    PoolScaleControl *m_prefill;
    PoolScaleControl *m_decode;
    QLabel *m_status;
    QTreeView *m_tree;
    QPushButton *m_cancel;
    OperationModel *m_model;
    ScalePlan m_plan;
    Confirm m_confirm;
};

} // namespace pd
