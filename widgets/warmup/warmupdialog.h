// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/warmuptypes.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

// The warm-up / smoke test in the console: parameters, Run / Cancel, progress, the outcome table
// (every kind with its count and an example), the latency table (TTFT / TPOT / E2E p50 p90 p99 max
// over the ok requests), the per-request chart, Export CSV. Non-modal; never blocks: the run is
// asynchronous and closing or deleting the dialog cancels it. Every run is audited by WarmUpRun.
//
//     auto *dialog = new pd::WarmUpDialog(pd::profileProxyEndpoint(profile), profile.decode.servedModelName,
//                                         audit, window);
//     dialog->setAttribute(Qt::WA_DeleteOnClose);
//     dialog->show();
namespace pd {

class AuditLog;
class WarmUpChart;
class WarmUpRun;

class WarmUpDialog final : public QDialog {
    Q_OBJECT
public:
    WarmUpDialog(ProxyEndpoint endpoint, QString profileModel, AuditLog *audit, QWidget *parent = nullptr);
    ~WarmUpDialog() override;

    WarmUpOptions options() const;
    void setOptions(const WarmUpOptions &options);
    bool isRunning() const;
    const std::optional<WarmUpResult> &lastResult() const { return m_result; }
    // Writes the last result as CSV; false with *error when there is none or the file cannot be written.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // The operator's name for an outcome (translated).
    static QString outcomeLabel(WarmUpOutcome outcome);

    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *exportButton() const { return m_export; }
    QTableWidget *outcomeTable() const { return m_outcomes; }
    QTableWidget *latencyTable() const { return m_latency; }
    WarmUpChart *chart() const { return m_chart; }
    QLabel *statusLabel() const { return m_status; }

Q_SIGNALS:
    void finished(const pd::WarmUpResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;
    void reject() override;

private:
    void start();
    void cancel();
    void onSample(const WarmUpSample &sample);
    void onFinished(const WarmUpResult &result);
    void fillOutcomes(
        const std::array<int, kWarmUpOutcomeCount> &counts, const std::array<QString, kWarmUpOutcomeCount> &examples);
    void fillLatency(const WarmUpResult *result);
    void setEditing(bool editable);
    void chooseCsvFile();

    ProxyEndpoint m_endpoint;
    QString m_profileModel;
    AuditLog *m_audit;
    WarmUpRun *m_runner = nullptr;
    std::optional<WarmUpResult> m_result;
    std::array<int, kWarmUpOutcomeCount> m_liveCounts {};
    std::array<QString, kWarmUpOutcomeCount> m_liveExamples;

    QSpinBox *m_count;
    QSpinBox *m_concurrency;
    QSpinBox *m_promptTokens;
    QSpinBox *m_maxTokens;
    QSpinBox *m_timeout;
    QCheckBox *m_stream;
    QLineEdit *m_model;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_export;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_outcomes;
    QTableWidget *m_latency;
    WarmUpChart *m_chart;
};

} // namespace pd
