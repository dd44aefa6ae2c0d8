// SPDX-License-Identifier: MIT
#pragma once

#include "ops/engineactions.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;

// Everything about one engine: identity (node, DP rank, port, role, launcher arguments), its derived
// state with the reason, each fact with its age, small charts from the series store, its recent
// events, and the actions on it (enabled once the SSH and scaling parts provide them).
namespace pd {

class ClusterStore;
class SeriesStore;
class Sparkline;
class StateTracker;

class EngineDetailPanel final : public QWidget {
    Q_OBJECT
public:
    EngineDetailPanel(ClusterStore *store, StateTracker *tracker, QWidget *parent = nullptr);

    void setSeriesStore(SeriesStore *series);
    void setEngine(int engine); // -1: nothing selected
    int engine() const { return m_engine; }
    void refresh();

    QString stateText() const;
    QString factsText() const; // the facts as shown, for tests
    QList<QPushButton *> actionButtons() const { return m_actions; }
    // Enables the action buttons, or disables them with the reason as their tooltip (read-only mode,
    // no operations in this window).
    // The log button keeps working when setLogAvailable(true) was called (reading changes nothing).
    void setActionsAvailable(bool available, const QString &whyNot = {});
    void setLogAvailable(bool available);

Q_SIGNALS:
    void actionRequested(pd::EngineAction action, int engine);
    void logRequested(int engine);

private:
    void refreshFacts();
    void refreshCharts();
    void refreshEvents();

    ClusterStore *m_store;
    StateTracker *m_tracker;
    SeriesStore *m_series = nullptr;
    int m_engine = -1;
    QLabel *m_title;
    QLabel *m_state;
    QLabel *m_identity;
    QPlainTextEdit *m_launcher;
    QLabel *m_facts;
    QList<Sparkline *> m_charts;
    QListWidget *m_events;
    QList<QPushButton *> m_actions;
    bool m_logAvailable = false;
    QWidget *m_body;
    QScrollArea *m_scroll = nullptr;
    QLabel *m_placeholder;
};

} // namespace pd
