// SPDX-License-Identifier: MIT
#include "logview.h"

#include "loglinedelegate.h"
#include "logs/consolepolllines.h"
#include "logs/logtail.h"

#include <QCheckBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace pd {

namespace {

// The tail's lines without the console's own polls, when asked.
class PollLineFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setHide(bool hide)
    {
        if (m_hide == hide)
            return;
        m_hide = hide;
        invalidateFilter();
    }
    bool hides() const { return m_hide; }
    bool hidden(int sourceRow) const
    {
        const auto *tail = static_cast<const LogTailModel *>(sourceModel());
        return m_hide && tail && sourceRow >= 0 && sourceRow < tail->rowCount() && isConsolePollLine(tail->line(sourceRow).text);
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &) const override { return !hidden(sourceRow); }

private:
    bool m_hide = true;
};

PollLineFilter *pollFilter(QSortFilterProxyModel *m) { return static_cast<PollLineFilter *>(m); }

} // namespace

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_view(new QListView(this))
    , m_filter(new PollLineFilter(this))
    , m_follow(new QCheckBox(tr("Follow"), this))
    , m_hidePolls(new QCheckBox(tr("Hide the console's polls"), this))
    , m_pause(new QPushButton(tr("Pause"), this))
    , m_search(new QLineEdit(this))
    , m_next(new QPushButton(tr("Next"), this))
    , m_prev(new QPushButton(tr("Previous"), this))
    , m_firstError(new QPushButton(tr("First error"), this))
    , m_nextError(new QPushButton(tr("Next error"), this))
    , m_status(new QLabel(this))
    , m_diagnosis(new QTextBrowser(this))
{
    m_view->setObjectName(QStringLiteral("logLines"));
    m_search->setObjectName(QStringLiteral("logSearch"));
    m_pause->setObjectName(QStringLiteral("logPause"));
    m_firstError->setObjectName(QStringLiteral("logFirstError"));
    m_diagnosis->setObjectName(QStringLiteral("logDiagnosis"));
    m_follow->setChecked(true);
    m_hidePolls->setObjectName(QStringLiteral("logHidePolls"));
    m_hidePolls->setChecked(true);
    m_hidePolls->setToolTip(tr("Hide the access lines of this console's own requests: GET /healthcheck, /metrics, "
                               "/health and /v1/models, asked every few seconds"));
    m_pause->setCheckable(true);
    m_search->setPlaceholderText(tr("Search (Enter: next, Shift+Enter: previous)"));
    m_search->setClearButtonEnabled(true);

    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_view->setFont(mono);
    m_view->setUniformItemSizes(true);
    m_view->setItemDelegate(new LogLineDelegate(m_view));
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_diagnosis->setOpenLinks(false);
    m_diagnosis->setMinimumWidth(260);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_follow);
    bar->addWidget(m_pause);
    bar->addWidget(m_hidePolls);
    bar->addSpacing(12);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_prev);
    bar->addWidget(m_next);
    bar->addSpacing(12);
    bar->addWidget(m_firstError);
    bar->addWidget(m_nextError);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(m_diagnosis);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_pause, &QPushButton::toggled, this, &LogView::setPaused);
    connect(m_hidePolls, &QCheckBox::toggled, this, &LogView::setHidePolls);
    connect(m_search, &QLineEdit::returnPressed, this,
        [this] { search(m_search->text(), QGuiApplication::keyboardModifiers() & Qt::ShiftModifier); });
    connect(m_next, &QPushButton::clicked, this, [this] { search(m_search->text(), false); });
    connect(m_prev, &QPushButton::clicked, this, [this] { search(m_search->text(), true); });
    connect(m_firstError, &QPushButton::clicked, this, &LogView::jumpToFirstError);
    connect(m_nextError, &QPushButton::clicked, this, &LogView::jumpToNextError);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_view->scrollToBottom();
    });
    // Scrolling up by hand stops following; back at the bottom resumes it.
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (m_view->verticalScrollBar()->isSliderDown())
            m_follow->setChecked(value == m_view->verticalScrollBar()->maximum());
    });
    updateStatus();
}

void LogView::setTail(LogTail *tail)
{
    for (const auto &c : m_connections)
        disconnect(c);
    m_connections.clear();
    m_tail = tail;
    m_filter->setSourceModel(tail ? tail->model() : nullptr);
    m_view->setModel(tail ? m_filter : nullptr);
    if (tail) {
        LogTailModel *model = tail->model();
        m_connections.append(connect(model, &QAbstractItemModel::rowsInserted, this, &LogView::onRowsInserted));
        m_connections.append(connect(tail, &LogTail::polled, this, &LogView::updateStatus));
        m_connections.append(connect(tail, &LogTail::failed, this, &LogView::updateStatus));
        m_connections.append(connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showDiagnosis(m_filter->mapToSource(current).row()); }));
        m_pause->setChecked(tail->isPaused());
    }
    showDiagnosis(-1);
    updateStatus();
}

bool LogView::isFollowing() const
{
    return m_follow->isChecked();
}

void LogView::setFollowing(bool follow)
{
    m_follow->setChecked(follow);
}

void LogView::setPaused(bool paused)
{
    if (m_pause->isChecked() != paused)
        m_pause->setChecked(paused); // re-enters through toggled
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (m_tail) {
        if (paused)
            m_tail->pause();
        else
            m_tail->resume();
    }
    updateStatus();
}

void LogView::onRowsInserted()
{
    if (m_follow->isChecked())
        m_view->scrollToBottom();
    if (currentRow() < 0)
        showDiagnosis(-1); // keep the panel on the first diagnosis while nothing is selected
    updateStatus();
}

int LogView::currentRow() const
{
    return m_view->currentIndex().isValid() ? m_filter->mapToSource(m_view->currentIndex()).row() : -1;
}

void LogView::setHidePolls(bool hide)
{
    if (m_hidePolls->isChecked() != hide)
        m_hidePolls->setChecked(hide); // re-enters through toggled
    const int current = currentRow();
    pollFilter(m_filter)->setHide(hide);
    if (current >= 0 && !pollFilter(m_filter)->hidden(current))
        m_view->scrollTo(m_filter->mapFromSource(m_tail->model()->index(current, 0)), QAbstractItemView::PositionAtCenter);
    else if (m_follow->isChecked())
        m_view->scrollToBottom();
    updateStatus();
}

bool LogView::hidesPolls() const
{
    return pollFilter(m_filter)->hides();
}

int LogView::visibleRows() const
{
    return m_tail ? m_filter->rowCount() : 0;
}

void LogView::select(int row)
{
    if (!m_tail || row < 0)
        return;
    m_follow->setChecked(false); // looking at a line: stop jumping to the bottom
    if (pollFilter(m_filter)->hidden(row))
        setHidePolls(false); // the line asked for is one of the console's polls: show them
    const QModelIndex index = m_filter->mapFromSource(m_tail->model()->index(row, 0));
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    showDiagnosis(row);
}

bool LogView::search(const QString &text, bool backwards)
{
    if (!m_tail || text.isEmpty())
        return false;
    const int cur = currentRow();
    const int from = backwards ? (cur < 0 ? m_tail->model()->rowCount() - 1 : cur - 1) : cur + 1;
    // Matches among the console's hidden polls come last: they are shown only when nothing else matches.
    int row = m_tail->model()->find(text, from, backwards);
    int hiddenMatch = -1;
    while (row >= 0 && pollFilter(m_filter)->hidden(row)) {
        hiddenMatch = hiddenMatch < 0 ? row : hiddenMatch;
        row = m_tail->model()->find(text, backwards ? row - 1 : row + 1, backwards);
    }
    if (row < 0)
        row = hiddenMatch;
    if (row < 0) {
        m_status->setText(tr("\u201c%1\u201d not found %2").arg(text, backwards ? tr("above") : tr("below")));
        return false;
    }
    select(row);
    updateStatus();
    return true;
}

bool LogView::jumpToFirstError()
{
    const int row = m_tail ? m_tail->model()->firstErrorRow() : -1;
    if (row < 0) {
        m_status->setText(tr("No error in the %1 lines held").arg(m_tail ? m_tail->model()->rowCount() : 0));
        return false;
    }
    select(row);
    return true;
}

bool LogView::jumpToNextError()
{
    const int row = m_tail ? m_tail->model()->nextErrorRow(currentRow()) : -1;
    if (row < 0)
        return false;
    select(row);
    return true;
}

void LogView::showDiagnosis(int row)
{
    const LogTailModel *model = m_tail ? m_tail->model() : nullptr;
    int sigRow = row;
    if (model && (row < 0 || model->line(row).cls.signatureId == 0)) {
        // Nothing diagnosed selected: show the first known signature in the buffer.
        sigRow = -1;
        if (row < 0) {
            for (int r = 0; r < model->rowCount(); ++r) {
                if (model->line(r).cls.signatureId > 0) {
                    sigRow = r;
                    break;
                }
            }
        }
    }
    const LogSignature *s = model && sigRow >= 0 ? logSignature(model->line(sigRow).cls.signatureId) : nullptr;
    if (!s) {
        m_diagnosis->setHtml(
            tr("<p><b>No known failure signature selected.</b></p><p>Lines marked with a diamond match one "
               "of the %1 known signatures; select one to see its diagnosis and fix.</p>")
                .arg(logSignatures().size()));
        return;
    }
    const QString sev = logSeverityName(s->severity);
    QString html = tr("<h3 style='color:%1'>#%2 %3</h3><p><i>%4</i> \u00b7 line at byte %5</p>")
                       .arg(LogLineDelegate::severityColor(int(s->severity)).name())
                       .arg(s->id)
                       .arg(s->title.toHtmlEscaped(), sev)
                       .arg(model->line(sigRow).offset);
    html += tr("<p><b>Diagnosis</b><br>%1</p><p><b>Fix</b><br>%2</p>")
                .arg(s->diagnosis.toHtmlEscaped(), s->fix.toHtmlEscaped());
    if (s->triggersNodeChecks)
        html += tr("<p><b>Network</b><br>Run the node checks on both ends of the failing link.</p>");
    html += QStringLiteral("<pre style='white-space:pre-wrap'>%1</pre>")
                .arg(model->line(sigRow).text.left(600).toHtmlEscaped());
    m_diagnosis->setHtml(html);
}

void LogView::updateStatus()
{
    if (!m_tail) {
        m_status->setText(tr("No log"));
        return;
    }
    const LogTailModel *model = m_tail->model();
    QString s = tr("%1 \u2014 %2 lines").arg(m_tail->path()).arg(model->rowCount());
    if (hidesPolls() && m_filter->rowCount() < model->rowCount())
        s += tr(" (%1 of the console's polls hidden)").arg(model->rowCount() - m_filter->rowCount());
    if (model->droppedLines() > 0)
        s += tr(" (%1 older dropped)").arg(model->droppedLines());
    s += m_tail->isPaused() ? tr(" \u00b7 paused") : tr(" \u00b7 live");
    if (!m_tail->lastError().isEmpty())
        s += tr(" \u00b7 %1").arg(m_tail->lastError());
    m_status->setText(s);
}

QString LogView::diagnosisText() const
{
    return m_diagnosis->toPlainText();
}

QString LogView::statusText() const
{
    return m_status->text();
}

} // namespace pd
