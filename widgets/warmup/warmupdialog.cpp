// SPDX-License-Identifier: MIT
#include "warmup/warmupdialog.h"

#include "ops/warmupreport.h"
#include "ops/warmuprun.h"
#include "stateappearance.h"
#include "warmup/warmupchart.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pd {

namespace {

QSpinBox *spin(int min, int max, int value, QWidget *parent)
{
    auto *s = new QSpinBox(parent);
    s->setRange(min, max);
    s->setValue(value);
    return s;
}

QTableWidget *table(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QTableWidgetItem *item(const QString &text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto *i = new QTableWidgetItem(text);
    i->setTextAlignment(align);
    return i;
}

} // namespace

QString WarmUpDialog::outcomeLabel(WarmUpOutcome outcome)
{
    switch (outcome) {
    case WarmUpOutcome::Ok:
        return tr("OK");
    case WarmUpOutcome::HttpError:
        return tr("HTTP error");
    case WarmUpOutcome::EmptyOk:
        return tr("Empty 200 (decoder failed)");
    case WarmUpOutcome::NoDone:
        return tr("Stream without [DONE]");
    case WarmUpOutcome::Malformed:
        return tr("Malformed answer");
    case WarmUpOutcome::ErrorPayload:
        return tr("Error in the answer");
    case WarmUpOutcome::NoTokens:
        return tr("No tokens");
    case WarmUpOutcome::Timeout:
        return tr("Timeout");
    case WarmUpOutcome::ConnectionFailed:
        return tr("Connection failed");
    case WarmUpOutcome::Cancelled:
        return tr("Cancelled");
    }
    return {};
}

WarmUpDialog::WarmUpDialog(ProxyEndpoint endpoint, QString profileModel, AuditLog *audit, QWidget *parent)
    : QDialog(parent)
    , m_endpoint(std::move(endpoint))
    , m_profileModel(std::move(profileModel))
    , m_audit(audit)
    , m_count(spin(1, 100000, 20, this))
    , m_concurrency(spin(1, 64, 4, this))
    , m_promptTokens(spin(1, 100000, 128, this))
    , m_maxTokens(spin(1, 100000, 16, this))
    , m_timeout(spin(1, 3600, 60, this))
    , m_stream(new QCheckBox(tr("Stream (measures TTFT and TPOT)"), this))
    , m_model(new QLineEdit(this))
    , m_run(new QPushButton(tr("&Run"), this))
    , m_cancel(new QPushButton(tr("&Cancel run"), this))
    , m_export(new QPushButton(tr("&Export CSV..."), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_outcomes(table({ tr("Outcome"), tr("Count"), tr("Example") }, this))
    , m_latency(
          table({ tr("Latency (ok requests)"), tr("N"), tr("p50 ms"), tr("p90 ms"), tr("p99 ms"), tr("max ms") }, this))
    , m_chart(new WarmUpChart(this))
{
    setObjectName(QStringLiteral("warmUpDialog"));
    setWindowTitle(tr("Warm-up and smoke test: %1").arg(m_endpoint.base.toString()));
    m_stream->setChecked(true);
    m_model->setPlaceholderText(m_profileModel.isEmpty()
            ? tr("from the proxy's /v1/models")
            : tr("from the proxy's /v1/models, else %1").arg(m_profileModel));
    m_count->setToolTip(tr("Requests to send. A few dozen warm the prefill engines before a benchmark."));
    m_concurrency->setToolTip(tr("At most this many requests in flight"));
    m_promptTokens->setToolTip(tr("Prompt length in tokens (about four characters each); every prompt is different"));
    m_maxTokens->setToolTip(tr("Tokens to generate per request (ignore_eos: exactly this many)"));
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("A request without a complete answer by then counts as a timeout"));

    auto *form = new QFormLayout;
    form->addRow(tr("Requests:"), m_count);
    form->addRow(tr("Concurrency:"), m_concurrency);
    form->addRow(tr("Prompt tokens:"), m_promptTokens);
    form->addRow(tr("Max tokens:"), m_maxTokens);
    form->addRow(tr("Timeout per request:"), m_timeout);
    form->addRow(tr("Model:"), m_model);
    form->addRow(QString(), m_stream);
    auto *parameters = new QGroupBox(tr("Parameters"), this);
    parameters->setLayout(form);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    buttons->addWidget(m_export);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addWidget(close);

    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setText(tr("Sends small completions through the proxy and checks every answer: an empty 200 or a "
                         "stream without [DONE] is the proxy hiding a decoder failure."));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_export->setEnabled(false);
    m_run->setDefault(true);
    m_latency->setRowCount(3);
    m_latency->horizontalHeader()->setStretchLastSection(false);
    m_latency->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_latency->setMaximumHeight(
        m_latency->horizontalHeader()->sizeHint().height() + 3 * m_latency->verticalHeader()->defaultSectionSize() + 4);
    fillOutcomes({}, {});
    fillLatency(nullptr);

    auto *top = new QHBoxLayout;
    top->addWidget(parameters);
    auto *right = new QVBoxLayout;
    right->addWidget(m_chart, 1);
    top->addLayout(right, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_outcomes, 1);
    layout->addWidget(m_latency);

    connect(m_run, &QPushButton::clicked, this, &WarmUpDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &WarmUpDialog::cancel);
    connect(m_export, &QPushButton::clicked, this, &WarmUpDialog::chooseCsvFile);
    connect(close, &QDialogButtonBox::rejected, this, &WarmUpDialog::reject);
    resize(820, 640);
}

WarmUpDialog::~WarmUpDialog()
{
    if (m_runner) {
        m_runner->disconnect(this); // no slot of a half-destroyed dialog
        m_runner->cancel(); // audited as cancelled; the replies go with the run
    }
}

WarmUpOptions WarmUpDialog::options() const
{
    WarmUpOptions o;
    o.count = m_count->value();
    o.concurrency = m_concurrency->value();
    o.promptTokens = m_promptTokens->value();
    o.maxTokens = m_maxTokens->value();
    o.requestTimeoutMs = m_timeout->value() * 1000;
    o.stream = m_stream->isChecked();
    o.model = m_model->text().trimmed();
    o.fallbackModel = m_profileModel;
    return o;
}

void WarmUpDialog::setOptions(const WarmUpOptions &o)
{
    m_count->setValue(o.count);
    m_concurrency->setValue(o.concurrency);
    m_promptTokens->setValue(o.promptTokens);
    m_maxTokens->setValue(o.maxTokens);
    m_timeout->setValue(std::max(1, o.requestTimeoutMs / 1000));
    m_stream->setChecked(o.stream);
    m_model->setText(o.model);
}

bool WarmUpDialog::isRunning() const
{
    return m_runner && m_runner->isRunning();
}

void WarmUpDialog::setEditing(bool editable)
{
    for (QWidget *w : std::initializer_list<QWidget *> {
             m_count, m_concurrency, m_promptTokens, m_maxTokens, m_timeout, m_stream, m_model })
        w->setEnabled(editable);
    m_run->setEnabled(editable);
    m_cancel->setEnabled(!editable);
    m_export->setEnabled(editable && m_result.has_value() && !m_result->samples.isEmpty());
}

void WarmUpDialog::start()
{
    if (isRunning())
        return;
    const WarmUpOptions o = options();
    m_result.reset();
    m_liveCounts.fill(0);
    m_liveExamples.fill(QString());
    m_chart->clear(o.count);
    fillOutcomes(m_liveCounts, m_liveExamples);
    fillLatency(nullptr);
    m_progress->setRange(0, o.count);
    m_progress->setValue(0);
    m_status->setStyleSheet(QString());
    m_status->setText(o.model.isEmpty() ? tr("Asking the proxy for its model...") : tr("Sending..."));
    delete m_runner;
    m_runner = new WarmUpRun(m_endpoint, o, m_audit, this);
    connect(m_runner, &WarmUpRun::modelResolved, this, [this](const QString &model, const QString &source) {
        m_status->setText(tr("Sending to model %1 (%2)...").arg(model, source));
    });
    connect(m_runner, &WarmUpRun::sampleFinished, this, &WarmUpDialog::onSample);
    connect(m_runner, &WarmUpRun::progress, m_progress, &QProgressBar::setValue);
    connect(m_runner, &WarmUpRun::finished, this, &WarmUpDialog::onFinished);
    setEditing(false);
    m_runner->start();
}

void WarmUpDialog::cancel()
{
    if (isRunning())
        m_runner->cancel();
}

void WarmUpDialog::onSample(const WarmUpSample &sample)
{
    m_chart->addSample(sample);
    const int k = int(sample.outcome);
    ++m_liveCounts[k];
    if (m_liveExamples[k].isEmpty() && sample.outcome != WarmUpOutcome::Ok)
        m_liveExamples[k] = QStringLiteral("#%1: %2").arg(sample.index + 1).arg(sample.detail);
    fillOutcomes(m_liveCounts, m_liveExamples);
}

void WarmUpDialog::onFinished(const WarmUpResult &result)
{
    m_result = result;
    fillOutcomes(result.counts, result.examples);
    fillLatency(&result);
    setEditing(true);
    QString text;
    bool bad = false;
    if (!result.error.isEmpty()) {
        text = tr("Not run: %1").arg(result.error);
        bad = true;
    } else {
        const double rate = result.successRate();
        text = tr("%1 of %2 requests succeeded (%3 %) in %4 s; model %5.")
                   .arg(result.ok())
                   .arg(result.completed())
                   .arg(std::isfinite(rate) ? QString::number(rate * 100.0, 'f', 1) : QStringLiteral("-"))
                   .arg(QString::number(double(result.durationMs) / 1000.0, 'f', 1))
                   .arg(result.model);
        if (result.cancelled)
            text += QLatin1Char(' ') + tr("Cancelled after %1 request(s).").arg(result.sent());
        if (result.failed() > 0)
            text += QLatin1Char(' ') + tr("%n request(s) failed: see the table.", nullptr, result.failed());
        bad = result.failed() > 0;
    }
    if (!result.auditError.isEmpty())
        text += QLatin1Char(' ') + tr("Not audited: %1").arg(result.auditError);
    m_status->setStyleSheet(bad ? QStringLiteral("color: %1;").arg(toneInk(Tone::Bad).name()) : QString());
    m_status->setText(text);
    Q_EMIT finished(result);
}

void WarmUpDialog::fillOutcomes(
    const std::array<int, kWarmUpOutcomeCount> &counts, const std::array<QString, kWarmUpOutcomeCount> &examples)
{
    // OK first, then only the kinds that occurred (an empty table row per kind would hide the news).
    QList<int> rows { int(WarmUpOutcome::Ok) };
    for (int k = 1; k < kWarmUpOutcomeCount; ++k)
        if (counts[k] > 0)
            rows << k;
    m_outcomes->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        const int k = rows.at(r);
        auto *label
            = item((k == 0 ? QStringLiteral("\u2714 ") : QStringLiteral("\u2716 ")) + outcomeLabel(WarmUpOutcome(k)));
        label->setData(Qt::UserRole, warmUpOutcomeName(WarmUpOutcome(k)));
        if (k != 0)
            label->setForeground(toneInk(Tone::Bad));
        m_outcomes->setItem(r, 0, label);
        m_outcomes->setItem(r, 1, item(QString::number(counts[k]), Qt::AlignRight | Qt::AlignVCenter));
        auto *example = item(examples[k]);
        example->setToolTip(examples[k]);
        m_outcomes->setItem(r, 2, example);
    }
    m_outcomes->resizeColumnToContents(0);
    m_outcomes->resizeColumnToContents(1);
}

void WarmUpDialog::fillLatency(const WarmUpResult *result)
{
    const QStringList names { tr("Time to first token"), tr("Time per output token"), tr("End to end") };
    const LatencyStats none;
    const std::array<const LatencyStats *, 3> stats { result ? &result->ttft : &none, result ? &result->tpot : &none,
        result ? &result->e2e : &none };
    for (int r = 0; r < 3; ++r) {
        const LatencyStats &s = *stats[r];
        m_latency->setItem(r, 0, item(names.at(r)));
        m_latency->setItem(r, 1, item(QString::number(s.count), Qt::AlignRight | Qt::AlignVCenter));
        const std::array<double, 4> values { s.p50, s.p90, s.p99, s.max };
        for (int c = 0; c < 4; ++c)
            m_latency->setItem(r, 2 + c, item(formatMs(values[c]), Qt::AlignRight | Qt::AlignVCenter));
    }
}

bool WarmUpDialog::exportCsv(const QString &path, QString *error) const
{
    if (!m_result) {
        if (error)
            *error = tr("No result to export yet.");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(warmUpCsv(*m_result)) < 0 || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void WarmUpDialog::chooseCsvFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export warm-up results"), QStringLiteral("warmup.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error)) {
        m_status->setStyleSheet(QStringLiteral("color: %1;").arg(toneInk(Tone::Bad).name()));
        m_status->setText(error);
        return;
    }
    m_status->setText(m_status->text() + QLatin1Char(' ') + tr("Exported to %1.").arg(path));
}

void WarmUpDialog::closeEvent(QCloseEvent *event)
{
    cancel();
    QDialog::closeEvent(event);
}

void WarmUpDialog::reject()
{
    cancel();
    QDialog::reject();
}

} // namespace pd
