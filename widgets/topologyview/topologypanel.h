// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace pd {

class TopologyView;

// The Topology tab: the canvas and, above it, the filter box (state, node, pool, free text), the
// colouring (state or a metric), the layout (auto, boxes, heatmap) and zoom buttons.
class TopologyPanel final : public QWidget {
    Q_OBJECT
public:
    explicit TopologyPanel(QWidget *parent = nullptr);

    TopologyView *view() const { return m_view; }
    void setProfile(const Profile &profile);

    QLineEdit *filterEdit() const { return m_text; }
    QComboBox *stateCombo() const { return m_state; }
    QComboBox *nodeCombo() const { return m_node; }
    QComboBox *roleCombo() const { return m_role; }

private:
    void applyFilter();
    void updateCount(int matching);

    TopologyView *m_view;
    QLineEdit *m_text;
    QComboBox *m_state;
    QComboBox *m_node;
    QComboBox *m_role;
    QComboBox *m_color;
    QComboBox *m_layout;
    QLabel *m_count;
    int m_engines = 0;
};

} // namespace pd
