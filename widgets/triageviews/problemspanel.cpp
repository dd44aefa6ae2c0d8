// SPDX-License-Identifier: MIT
#include "triageviews/problemspanel.h"

#include "models/modelroles.h"
#include "models/problemmodel.h"
#include "triage/triage.h"
#include "stateappearance.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace pd {

namespace {

// How often the "since" ages of the listed problems are repainted.
constexpr int kAgesRefreshMs = 5000;

// The severity cell: a coloured badge with a glyph, so it reads without colour too.
class SeverityDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        const auto severity = ProblemSeverity(index.data(ProblemSeverityRole).toInt());
        const bool acked = index.data(AcknowledgedRole).toBool();
        const QRect r = option.rect.adjusted(4, 3, -4, -3);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        QColor c = severityBadge(severity);
        if (acked)
            c.setAlpha(110);
        painter->setPen(Qt::NoPen);
        painter->setBrush(c);
        painter->drawRoundedRect(r, 4, 4);
        // The painted glyph, then the word: no font character that a font may lack.
        const int g = std::max(8, std::min(r.height() - 4, opt.fontMetrics.height() - 2));
        const QString word = index.data().toString().toUpper();
        QFont f = painter->font();
        f.setBold(true);
        painter->setFont(f);
        const int textWidth = QFontMetrics(f).horizontalAdvance(word);
        const int left = r.left() + std::max(4, (r.width() - g - 4 - textWidth) / 2);
        drawSeverityGlyph(*painter, severity, QRectF(left, r.center().y() - g / 2.0 + 0.5, g, g), Qt::white);
        painter->setPen(Qt::white);
        painter->drawText(QRect(left + g + 4, r.top(), r.right() - left - g - 4, r.height()), Qt::AlignVCenter | Qt::AlignLeft, word);
        painter->restore();
    }
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize s = QStyledItemDelegate::sizeHint(option, index);
        QFont bold = option.font;
        bold.setBold(true);
        s.setWidth(QFontMetrics(bold).horizontalAdvance(QStringLiteral("CRITICAL")) + option.fontMetrics.height() + 28);
        return s;
    }
};

} // namespace

ProblemsPanel::ProblemsPanel(Triage *triage, QWidget *parent)
    : QWidget(parent)
    , m_triage(triage)
    , m_model(new ProblemModel(triage, this))
    , m_view(new QTableView(this))
    , m_header(new QLabel(this))
    , m_empty(new QLabel(this))
    , m_ack(new QPushButton(tr("&Acknowledge"), this))
    , m_remove(new QPushButton(tr("&Remove from proxy"), this))
    , m_restartGroup(new QPushButton(tr("Restart &group"), this))
    , m_stack(new QStackedWidget(this))
{
    setObjectName(QStringLiteral("problemsPanel"));
    m_view->setObjectName(QStringLiteral("problemView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 10);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setItemDelegateForColumn(ProblemModel::SeverityColumn, new SeverityDelegate(m_view));
    m_view->setColumnWidth(
        ProblemModel::SeverityColumn, m_view->fontMetrics().horizontalAdvance(QStringLiteral("CRITICAL")) + m_view->fontMetrics().height() + 32);
    m_view->setColumnWidth(ProblemModel::WhatColumn,
        m_view->fontMetrics().horizontalAdvance(QCoreApplication::translate("pd::Triage", "Engine not running, yet in the proxy")) + 16);
    m_view->setColumnWidth(ProblemModel::WhereColumn,
        m_view->fontMetrics().horizontalAdvance(QStringLiteral("d1 · 127.0.0.7:9003 (DP 19)")) + 16);
    m_view->setColumnWidth(
        ProblemModel::SinceColumn, m_view->fontMetrics().horizontalAdvance(QStringLiteral("59 min")) + 16);
    m_view->setColumnWidth(ProblemModel::DetailColumn, m_view->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 60);
    connect(m_view, &QTableView::clicked, this, &ProblemsPanel::activate);
    connect(m_view, &QTableView::activated, this, &ProblemsPanel::activate);

    m_empty->setObjectName(QStringLiteral("problemsEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(tr("No problems: every observed engine serves and the proxy answers."));
    m_empty->setEnabled(false);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    m_header->setObjectName(QStringLiteral("problemsHeader"));
    m_ack->setObjectName(QStringLiteral("acknowledgeButton"));
    m_ack->setToolTip(tr("Silence notifications for the selected problems until they clear"));
    connect(m_ack, &QPushButton::clicked, this, &ProblemsPanel::acknowledgeSelected);

    m_remove->setObjectName(QStringLiteral("removeDeadButton"));
    m_remove->setVisible(false);
    connect(m_remove, &QPushButton::clicked, this, &ProblemsPanel::removeSelectedFromProxy);

    m_restartGroup->setObjectName(QStringLiteral("restartGroupButton"));
    m_restartGroup->setVisible(false);
    connect(m_restartGroup, &QPushButton::clicked, this, &ProblemsPanel::restartGroup);

    auto *top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(m_restartGroup);
    top->addWidget(m_remove);
    top->addWidget(m_ack);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);

    connect(triage, &Triage::problemsChanged, this, &ProblemsPanel::updateHeader);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ProblemsPanel::updateHeader);
    // "Since" ages move even when nothing else does.
    auto *ages = new QTimer(this);
    connect(ages, &QTimer::timeout, this, [this] {
        if (m_model->rowCount() > 0)
            m_view->viewport()->update();
    });
    ages->start(kAgesRefreshMs);
    updateHeader();
}

void ProblemsPanel::updateHeader()
{
    const int n = m_triage->count();
    int critical = 0, acked = 0;
    for (const Problem &p : m_triage->problems()) {
        critical += p.severity == ProblemSeverity::Critical ? 1 : 0;
        acked += p.acknowledged ? 1 : 0;
    }
    QString text = n == 0 ? tr("<b>No problems</b>: every observed engine serves and the proxy answers.")
                 : n == 1 ? tr("<b>1 problem</b>") : tr("<b>%1 problems</b>").arg(n);
    if (critical > 0)
        text += QStringLiteral(" · ")
                + severityHtml(ProblemSeverity::Critical, QStringLiteral("<b>%1</b>").arg(tr("%n critical", nullptr, critical)));
    if (acked > 0)
        text += tr(" · %n acknowledged", nullptr, acked);
    if (n > 0)
        text += tr(" — click one to see its engine");
    m_header->setText(text);
    m_stack->setCurrentWidget(n > 0 ? static_cast<QWidget *>(m_view) : m_empty);
    // With nothing to list the panel is its one header line (the dock shrinks to it, mainwindow.cpp).
    m_stack->setVisible(n > 0);
    m_ack->setVisible(n > 0);
    m_remove->setVisible(m_removeOffered && n > 0);
    m_ack->setEnabled(m_view->selectionModel()->hasSelection());
    const int dead = int(deadEnginesSelected().size());
    m_remove->setEnabled(m_removeAvailable && dead > 0);
    const QString group = groupToRestart();
    m_restartGroup->setVisible(!group.isEmpty());
    m_restartGroup->setEnabled(m_restartAvailable);
    if (!m_restartAvailable)
        m_restartGroup->setToolTip(m_restartWhyNot);
    else if (!group.isEmpty())
        m_restartGroup->setToolTip(tr("Stop every rank of %1 and start them all together: the only way out of a "
                                      "broken group, and the only restart of a coupled group's rank")
                                       .arg(group));
    if (m_removeAvailable)
        m_remove->setToolTip(dead > 0 ? tr("Take the %n selected dead engine(s) out of the proxy, which keeps routing to them", nullptr, dead)
                                      : tr("Select stalled, unhealthy or unreachable engines to take them out of the proxy"));
}

void ProblemsPanel::setRemoveAvailable(bool available, const QString &whyNot)
{
    m_removeAvailable = available;
    m_removeOffered = true;
    if (!available)
        m_remove->setToolTip(whyNot);
    updateHeader();
}

QList<int> ProblemsPanel::deadEnginesSelected() const
{
    QList<int> engines;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        const QString key = row.data(ProblemKeyRole).toString();
        for (const Problem &p : m_triage->problems()) {
            if (p.key != key || p.engine < 0 || engines.contains(p.engine))
                continue;
            if (p.kind == ProblemKind::ListedButDead || p.kind == ProblemKind::EngineStalled
                || p.kind == ProblemKind::EngineUnhealthy || p.kind == ProblemKind::EngineUnreachable)
                engines << p.engine;
        }
    }
    return engines;
}

QString ProblemsPanel::groupToRestart() const
{
    // A broken group's problem, or an engine problem of a coupled group's rank (its advice names the group
    // restart: a rank alone cannot rejoin its group).
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        const QString key = row.data(ProblemKeyRole).toString();
        for (const Problem &p : m_triage->problems()) {
            if (p.key == key && !p.group.isEmpty())
                return p.group;
        }
    }
    // Unselected: the most urgent problem whose fix is the restart (a log line alone is no reason to restart
    // a group; selected, its group is offered).
    for (const Problem &p : m_triage->problems()) {
        if (!p.group.isEmpty() && p.kind != ProblemKind::LogError)
            return p.group; // ranked: a broken group before any rank's problem
    }
    return {};
}

void ProblemsPanel::setRestartGroupAvailable(bool available, const QString &whyNot)
{
    m_restartAvailable = available;
    m_restartWhyNot = whyNot;
    updateHeader();
}

void ProblemsPanel::restartGroup()
{
    const QString group = groupToRestart();
    if (m_restartAvailable && !group.isEmpty())
        Q_EMIT restartGroupRequested(group);
}

void ProblemsPanel::removeSelectedFromProxy()
{
    const QList<int> engines = deadEnginesSelected();
    if (m_removeAvailable && !engines.isEmpty())
        Q_EMIT removeDeadRequested(engines);
}

void ProblemsPanel::acknowledgeSelected()
{
    QStringList keys;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows)
        keys.append(row.data(ProblemKeyRole).toString());
    for (const QString &key : keys)
        m_triage->acknowledge(key);
}

void ProblemsPanel::activate(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const int engine = index.data(EngineIndexRole).toInt();
    const int node = index.data(NodeIndexRole).toInt();
    if (engine >= 0)
        Q_EMIT engineFocusRequested(engine);
    else if (node >= 0)
        Q_EMIT nodeFocusRequested(node);
}

} // namespace pd
