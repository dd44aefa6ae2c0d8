// SPDX-License-Identifier: MIT
#include "topologyview/topologypanel.h"

#include "topologyview/statestyle.h"
#include "topologyview/topologyview.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace pd {

namespace {

constexpr int kProblemsEntry = -2; // the state combo's "problems" entry

QToolButton *toolButton(const QString &text, const QString &tip, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

} // namespace

TopologyPanel::TopologyPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new TopologyView(this))
    , m_text(new QLineEdit(this))
    , m_state(new QComboBox(this))
    , m_node(new QComboBox(this))
    , m_role(new QComboBox(this))
    , m_color(new QComboBox(this))
    , m_layout(new QComboBox(this))
    , m_count(new QLabel(this))
{
    setObjectName(QStringLiteral("topologyPanel"));
    m_text->setObjectName(QStringLiteral("topologyFilterEdit"));
    m_text->setPlaceholderText(tr("Filter (node, host, :port, dp 12, state…)"));
    m_text->setClearButtonEnabled(true);
    m_text->setMinimumWidth(140);

    m_state->setObjectName(QStringLiteral("topologyStateFilter"));
    m_state->addItem(tr("Any state"), -1);
    m_state->addItem(tr("Problems (stalled, unhealthy, unreachable, group broken)"), kProblemsEntry);
    for (int s = 0; s < StateStyle::kStateCount; ++s)
        m_state->addItem(StateStyle::label(EngineState(s)), s);

    m_node->setObjectName(QStringLiteral("topologyNodeFilter"));
    m_role->setObjectName(QStringLiteral("topologyRoleFilter"));
    m_role->addItem(tr("Both pools"), -1);
    m_role->addItem(tr("Prefill"), int(Role::Prefill));
    m_role->addItem(tr("Decode"), int(Role::Decode));

    m_color->setObjectName(QStringLiteral("topologyColorBy"));
    m_color->addItem(tr("Colour: state"), int(TopologyView::ColorBy::State));
    m_color->addItem(tr("Colour: KV cache %"), int(TopologyView::ColorBy::KvUsage));
    m_color->addItem(tr("Colour: running requests"), int(TopologyView::ColorBy::Running));
    m_color->addItem(tr("Colour: generation tokens/s"), int(TopologyView::ColorBy::GenerationRate));

    m_layout->setObjectName(QStringLiteral("topologyLayoutMode"));
    m_layout->addItem(tr("Layout: auto"), int(TopologyMode::Auto));
    m_layout->addItem(tr("Layout: node boxes"), int(TopologyMode::Boxes));
    m_layout->addItem(tr("Layout: heatmap"), int(TopologyMode::Heatmap));

    auto *fit = toolButton(tr("Fit"), tr("Show the whole cluster (0)"), this);
    auto *zoomOut = toolButton(QStringLiteral("−"), tr("Zoom out (-)"), this);
    auto *zoomIn = toolButton(QStringLiteral("+"), tr("Zoom in (+)"), this);
    auto *help
        = new QLabel(tr("<small>drag: select area · Shift/Ctrl: add · <b>right-click: actions</b> (engine, "
                        "selection or node) · right/middle/Alt-drag: pan · wheel: zoom · arrows, Enter: open</small>"),
            this);
    help->setObjectName(QStringLiteral("topologyHelp"));
    help->setWordWrap(true); // its one line must not set the window's minimum width

    // The combos are as wide as a short entry, not their longest one ("Problems (stalled, …)"): at
    // 1400 px the bar must leave the engine detail dock its width; the open list shows every entry whole.
    for (QComboBox *combo : { m_state, m_node, m_role, m_color, m_layout }) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(combo == m_state || combo == m_color ? 10 : 7);
        combo->view()->setMinimumWidth(combo->view()->sizeHintForColumn(0) + 24);
        combo->setToolTip(combo->currentText());
        connect(combo, &QComboBox::currentTextChanged, combo, &QComboBox::setToolTip);
    }

    // Two rows: what is shown (filters) above how it is drawn (colour, layout, zoom) and the help, so
    // the topology never needs more width than a 1400 px window leaves beside the engine detail dock.
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_text, 2);
    bar->addWidget(m_state);
    bar->addWidget(m_node);
    bar->addWidget(m_role);
    bar->addWidget(m_count);
    bar->addStretch(1);
    auto *view = new QHBoxLayout;
    view->setContentsMargins(0, 0, 0, 0);
    view->addWidget(m_color);
    view->addWidget(m_layout);
    view->addWidget(zoomOut);
    view->addWidget(zoomIn);
    view->addWidget(fit);
    view->addSpacing(8);
    view->addWidget(help, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addLayout(view);
    layout->addWidget(m_view, 1);

    connect(m_text, &QLineEdit::textChanged, this, &TopologyPanel::applyFilter);
    for (QComboBox *combo : { m_state, m_node, m_role })
        connect(combo, &QComboBox::currentIndexChanged, this, &TopologyPanel::applyFilter);
    connect(m_color, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setColorBy(TopologyView::ColorBy(m_color->currentData().toInt())); });
    connect(m_layout, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setLayoutMode(TopologyMode(m_layout->currentData().toInt())); });
    connect(fit, &QToolButton::clicked, m_view, &TopologyView::fitToView);
    connect(zoomIn, &QToolButton::clicked, m_view, &TopologyView::zoomIn);
    connect(zoomOut, &QToolButton::clicked, m_view, &TopologyView::zoomOut);
    connect(m_view, &TopologyView::filterMatchesChanged, this, &TopologyPanel::updateCount);
    setFocusProxy(m_view);
}

void TopologyPanel::setProfile(const Profile &profile)
{
    {
        const QSignalBlocker blocker(m_node);
        m_node->clear();
        m_node->addItem(tr("All nodes"), -1);
        for (int n = 0; n < profile.nodes.size(); ++n)
            m_node->addItem(
                QStringLiteral("%1 (%2)").arg(profile.nodes.at(n).name, roleName(profile.nodes.at(n).role)), n);
    }
    m_engines = int(profile.engines().size());
    m_view->setProfile(profile);
    applyFilter();
}

void TopologyPanel::applyFilter()
{
    TopologyFilter filter;
    filter.text = m_text->text();
    const int state = m_state->currentData().toInt();
    if (state == kProblemsEntry)
        filter.states
            = { EngineState::Stalled, EngineState::Unhealthy, EngineState::Unreachable, EngineState::GroupBroken };
    else if (state >= 0)
        filter.states = { EngineState(state) };
    filter.node = m_node->currentData().isValid() ? m_node->currentData().toInt() : -1;
    const int role = m_role->currentData().toInt();
    if (role >= 0)
        filter.role = Role(role);
    m_view->setFilter(filter);
}

void TopologyPanel::updateCount(int matching)
{
    m_count->setText(m_view->filter().isEmpty() ? tr("%n engine(s)", nullptr, m_engines)
                                                : tr("%1 of %2 match").arg(matching).arg(m_engines));
}

} // namespace pd
