// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/nodecheckrunner.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableView;

// The node checks view: a node x NPU grid (colour and glyph per cell), a click shows the cell's checks
// and the raw output of each, a button runs the suites on every node, and the report exports to CSV or
// JSON. Runs go through the NodeCheckRunner (never blocking this thread).
namespace pd {

class NodeCheckGridModel;

class NodeChecksGrid final : public QWidget {
    Q_OBJECT
public:
    explicit NodeChecksGrid(NodeCheckRunner *runner, QWidget *parent = nullptr);

    void setTargets(const QList<NodeCheckTarget> &targets);
    void runChecks();
    void showReport(const ClusterReport &report); // a finished report (pdctl, tests, or the last run)

    enum class ExportFormat { Csv, Json };
    bool exportReport(const QString &path, ExportFormat format, QString *error = nullptr) const;

    NodeCheckGridModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString detailsText() const; // what the raw-output pane shows
    QString statusText() const;

Q_SIGNALS:
    void runFinished(const pd::ClusterReport &report);

private:
    void showCell(const QModelIndex &index);
    void showCheck(int row);
    void updateStatus();
    void exportWithDialog(ExportFormat format);

    NodeCheckRunner *m_runner;
    NodeCheckGridModel *m_model;
    QList<NodeCheckTarget> m_targets;
    QTableView *m_table;
    QListWidget *m_checks;
    QPlainTextEdit *m_raw;
    QLabel *m_status;
    QPushButton *m_run;
    QPushButton *m_exportCsv;
    QPushButton *m_exportJson;
    QList<CheckResult> m_cellChecks;
    int m_job = 0;
    int m_reported = 0;
};

} // namespace pd
