// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;

// The scale control of one pool: how many instances it has (active, waiting, draining), a spin box
// for the wanted count and Apply. Apply only asks; the panel plans and confirms.
namespace pd {

class PoolScaleControl final : public QWidget {
    Q_OBJECT
public:
    explicit PoolScaleControl(Role role, QWidget *parent = nullptr);

    Role role() const { return m_role; }
    // The pool's membership as the console's table says, and how many engines the profile has.
    void setMembership(int active, int waiting, int draining, int profileEngines);
    void setReadOnly(bool readOnly);
    void setBusy(bool busy);  // an operation of this pool runs: Apply waits
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
    QSpinBox *m_spin;
    QPushButton *m_apply;
    int m_current = 0;
    bool m_readOnly = false;
    bool m_busy = false;
    bool m_touched = false;
};

} // namespace pd
