// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QDateTime>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QSpinBox;

// The scale control of one pool: how many instances it has (active, waiting, draining), a spin box
// for the wanted count and Apply. Apply only asks; the panel plans and confirms. Under the row, in
// words where the operator looks (not in a tooltip): why Apply waits and the way out, and what a
// drain that lingers in a busy proxy costs.
namespace pd {

class PoolScaleControl final : public QWidget {
    Q_OBJECT
public:
    explicit PoolScaleControl(Role role, QWidget *parent = nullptr);

    Role role() const { return m_role; }
    // The pool's membership as the console's table says, and how many engines the profile has.
    void setMembership(int active, int waiting, int draining, int profileEngines);
    void setReadOnly(bool readOnly);
    // An operation of this pool runs: Apply waits. `what`: which ("group-restart decode@…: Wait until …").
    void setBusy(bool busy, const QString &what = {});
    // The oldest drain of the pool began at `since` (invalid: none) with `inFlight` requests through the
    // proxy (nullopt: unknown): a busy proxy finalises drains only when idle.
    void setDrain(const QDateTime &since, std::optional<int> inFlight);
    QString noteText() const; // the line under the row (empty: none shown)
    int target() const;
    void setTarget(int n);
    QPushButton *applyButton() const { return m_apply; }

Q_SIGNALS:
    void applyRequested(pd::Role role, int target);

private:
    void updateState();

    Role m_role;
    QLabel *m_title;
    QLabel *m_counts;
    QLabel *m_note;
    QSpinBox *m_spin;
    QPushButton *m_apply;
    int m_current = 0;
    bool m_readOnly = false;
    bool m_busy = false;
    QString m_busyWhat;
    QDateTime m_drainSince;
    std::optional<int> m_inFlight;
    int m_draining = 0;
    bool m_touched = false;
};

} // namespace pd
