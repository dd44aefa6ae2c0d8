// SPDX-License-Identifier: MIT
#include "nodechecksgrid.h"

#include "models/nodecheckgridmodel.h"
#include "nodecheck/reportexport.h"
#include "verdictdelegate.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace pd {

NodeChecksGrid::NodeChecksGrid(NodeCheckRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_model(new NodeCheckGridModel(this))
    , m_table(new QTableView(this))
    , m_checks(new QListWidget(this))
    , m_raw(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_run(new QPushButton(tr("Run checks"), this))
    , m_exportCsv(new QPushButton(tr("Export CSV\u2026"), this))
    , m_exportJson(new QPushButton(tr("Export JSON\u2026"), this))
{
    m_run->setObjectName(QStringLiteral("runChecks"));
    m_exportCsv->setObjectName(QStringLiteral("exportCsv"));
    m_exportJson->setObjectName(QStringLiteral("exportJson"));
    m_table->setObjectName(QStringLiteral("nodeCheckGrid"));
    m_checks->setObjectName(QStringLiteral("cellChecks"));
    m_raw->setObjectName(QStringLiteral("rawOutput"));

    m_table->setModel(m_model);
    m_table->setItemDelegate(new VerdictDelegate(m_table));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->verticalHeader()->hide();
    m_table->setShowGrid(false);
    m_table->horizontalHeader()->setMinimumSectionSize(34);
    m_table->setMouseTracking(true);

    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_raw->setFont(mono);
    m_raw->setPlaceholderText(tr("Click a cell to see its checks and the raw output of each."));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_exportCsv);
    buttons->addWidget(m_exportJson);

    auto *details = new QSplitter(Qt::Vertical, this);
    details->addWidget(m_checks);
    details->addWidget(m_raw);
    details->setStretchFactor(1, 3);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);

    connect(m_table, &QTableView::clicked, this, &NodeChecksGrid::showCell);
    connect(m_checks, &QListWidget::currentRowChanged, this, &NodeChecksGrid::showCheck);
    connect(m_run, &QPushButton::clicked, this, &NodeChecksGrid::runChecks);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportWithDialog(ExportFormat::Csv); });
    connect(m_exportJson, &QPushButton::clicked, this, [this] { exportWithDialog(ExportFormat::Json); });
    if (m_runner) {
        connect(m_runner, &NodeCheckRunner::nodeUpdated, this, [this](int job, const NodeReport &report) {
            if (job != m_job)
                return;
            m_model->updateNode(report);
            ++m_reported;
            updateStatus();
        });
        connect(m_runner, &NodeCheckRunner::finished, this, [this](int job, const ClusterReport &report) {
            if (job != m_job)
                return;
            showReport(report);
            Q_EMIT runFinished(report);
        });
    }
    m_run->setEnabled(m_runner != nullptr);
    updateStatus();
}

void NodeChecksGrid::setTargets(const QList<NodeCheckTarget> &targets)
{
    m_targets = targets;
    m_model->setTargets(targets);
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    updateStatus();
}

void NodeChecksGrid::runChecks()
{
    if (!m_runner || m_targets.isEmpty())
        return;
    m_model->setTargets(m_targets);
    m_reported = 0;
    m_job = m_runner->start(m_targets);
    m_checks->clear();
    m_raw->clear();
    updateStatus();
}

void NodeChecksGrid::showReport(const ClusterReport &report)
{
    m_model->setReport(report);
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    if (m_table->currentIndex().isValid())
        showCell(m_table->currentIndex());
    updateStatus();
}

void NodeChecksGrid::showCell(const QModelIndex &index)
{
    m_cellChecks = m_model->checksAt(index);
    // Worst first, so the reason for the colour is on top.
    std::stable_sort(m_cellChecks.begin(), m_cellChecks.end(),
        [](const CheckResult &a, const CheckResult &b) { return int(a.verdict) > int(b.verdict); });
    m_checks->clear();
    for (const CheckResult &c : m_cellChecks) {
        auto *item = new QListWidgetItem(
            QStringLiteral("%1  %2 \u2014 %3")
                .arg(VerdictDelegate::verdictGlyph(int(c.verdict)), checkKindName(c.kind), c.reason));
        item->setForeground(VerdictDelegate::verdictColor(int(c.verdict)));
        m_checks->addItem(item);
    }
    if (m_cellChecks.isEmpty())
        m_raw->setPlainText(index.data(Qt::ToolTipRole).toString());
    else
        m_checks->setCurrentRow(0);
}

void NodeChecksGrid::showCheck(int row)
{
    if (row < 0 || row >= m_cellChecks.size())
        return;
    const CheckResult &c = m_cellChecks.at(row);
    QString text;
    text += tr("%1 on %2%3: %4").arg(checkKindName(c.kind), c.node,
                c.device < 0 ? QString() : tr(" device %1").arg(c.device), verdictLabel(c.verdict))
        + QLatin1Char('\n');
    text += tr("reason: %1").arg(c.reason) + QLatin1Char('\n');
    if (!c.command.isEmpty() && c.kind != CheckKind::Reach)
        text += QStringLiteral("$ %1\n").arg(c.command);
    if (c.exitCode >= 0)
        text += tr("exit code: %1").arg(c.exitCode) + QLatin1Char('\n');
    text += QStringLiteral("\n--- stdout ---\n") + QString::fromUtf8(c.out);
    if (!c.err.isEmpty())
        text += QStringLiteral("\n--- stderr ---\n") + QString::fromUtf8(c.err);
    m_raw->setPlainText(text);
}

void NodeChecksGrid::updateStatus()
{
    const ClusterReport &r = m_model->report();
    QString s;
    if (m_runner && m_runner->isRunning() && m_runner->currentJob() == m_job)
        s = tr("Running: %1 reports from %2 nodes\u2026").arg(m_reported).arg(m_targets.size());
    else if (r.nodes.isEmpty())
        s = tr("No nodes");
    else
        s = tr("%1 nodes \u2014 \u2717 %2 fail  ! %3 warning  ? %4 unknown  \u2713 %5 pass")
                .arg(r.nodes.size())
                .arg(r.count(Verdict::Fail))
                .arg(r.count(Verdict::Warning))
                .arg(r.count(Verdict::Unknown))
                .arg(r.count(Verdict::Pass));
    m_status->setText(s);
    const bool haveReport = r.finished.isValid();
    m_exportCsv->setEnabled(haveReport);
    m_exportJson->setEnabled(haveReport);
}

QString NodeChecksGrid::detailsText() const
{
    return m_raw->toPlainText();
}

QString NodeChecksGrid::statusText() const
{
    return m_status->text();
}

bool NodeChecksGrid::exportReport(const QString &path, ExportFormat format, QString *error) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("%1: %2").arg(path, f.errorString());
        return false;
    }
    f.write(format == ExportFormat::Csv ? reportToCsv(m_model->report()) : reportToJson(m_model->report()));
    if (!f.commit()) {
        if (error)
            *error = tr("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void NodeChecksGrid::exportWithDialog(ExportFormat format)
{
    const bool csv = format == ExportFormat::Csv;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export node-check report"),
        csv ? QStringLiteral("node-checks.csv") : QStringLiteral("node-checks.json"),
        csv ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportReport(path, format, &error))
        m_status->setText(tr("Export failed: %1").arg(error));
    else
        m_status->setText(tr("Report written to %1").arg(path));
}

} // namespace pd
