// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

// The Problems dock's content: every current problem ranked, one line each (severity, what, where,
// since, evidence, next step). Clicking a line asks the window to focus what it is about; the
// operator can acknowledge the selected problems.
namespace pd {

class ProblemModel;
class Triage;

class ProblemsPanel final : public QWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(Triage *triage, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    ProblemModel *model() const { return m_model; }
    void acknowledgeSelected();
    // The engines of the selected problems that are dead to the proxy (stalled, unhealthy, unreachable).
    QList<int> deadEnginesSelected() const;
    void removeSelectedFromProxy();
    // Shown when the window can act on the proxy (and not read-only); hidden otherwise.
    void setRemoveAvailable(bool available, const QString &whyNot = {});
    // The group "Restart group" acts on: the selected broken group's, else the top-ranked one; empty: none.
    QString groupToRestart() const;
    void restartGroup();
    // Disabled (with the reason as its tooltip) in read-only mode or while another operation runs.
    void setRestartGroupAvailable(bool available, const QString &whyNot = {});
    QPushButton *restartGroupButton() const { return m_restartGroup; }

Q_SIGNALS:
    void engineFocusRequested(int engine);
    void nodeFocusRequested(int node);
    // One click takes unreachable or stalled engines out of the proxy (it never does it itself, §8.2).
    void removeDeadRequested(const QList<int> &engines);
    // One click asks to restart a broken coupled DP group as a whole (docs/specs/dp-groups.md §3); the window
    // runs the operation.
    void restartGroupRequested(const QString &groupId);

private:
    void activate(const QModelIndex &index);
    void updateHeader();

    Triage *m_triage;
    ProblemModel *m_model;
    QTableView *m_view;
    QLabel *m_header;
    QLabel *m_empty;
    QPushButton *m_ack;
    QPushButton *m_remove;
    QPushButton *m_restartGroup;
    bool m_removeAvailable = false;
    bool m_removeOffered = false; // setRemoveAvailable() was called: the window can remove
    bool m_restartAvailable = true;
    QString m_restartWhyNot;
    QStackedWidget *m_stack;
};

} // namespace pd
