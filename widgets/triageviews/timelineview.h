// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

// Events on a time axis, one lane per engine, node or the proxy (those with events in the filter),
// painted with QPainter: state changes as markers in the new state's colour and glyph, other kinds
// as diamonds. Filter by kind and free text (node, engine, words); export what is shown as CSV.
namespace pd {

class EventFilterModel;
class EventModel;
class StateTracker;

class TimelineCanvas;

class TimelineView final : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(StateTracker *tracker, QWidget *parent = nullptr);

    EventFilterModel *filter() const { return m_filter; }
    void setWindowMinutes(int minutes);
    // Writes the filtered events as CSV (time ISO 8601 UTC, kind, where, engine, node, from, to, what,
    // reason, evidence). Returns false with *error on failure.
    bool exportCsv(const QString &path, QString *error) const;
    int laneCount() const;

Q_SIGNALS:
    void engineFocusRequested(int engine);

private:
    void exportDialog();

    StateTracker *m_tracker;
    EventModel *m_model;
    EventFilterModel *m_filter;
    TimelineCanvas *m_canvas;
    QLineEdit *m_text;
    QComboBox *m_kind;
    QComboBox *m_window;
    QLabel *m_count;
};

} // namespace pd
