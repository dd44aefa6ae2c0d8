// SPDX-License-Identifier: MIT
#include "logspage.h"

#include "logs/logtail.h"
#include "logview.h"
#include "stateappearance.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace pd {

LogsPage::LogsPage(CommandRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_picker(new QComboBox(this))
    , m_where(new QLabel(this))
    , m_view(new LogView(this))
{
    setObjectName(QStringLiteral("logsPage"));
    m_picker->setObjectName(QStringLiteral("logSourcePicker"));
    m_picker->setMinimumContentsLength(36);
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setObjectName(QStringLiteral("logWhere"));
    m_where->setTextFormat(Qt::RichText);
    connect(m_picker, &QComboBox::activated, this, &LogsPage::showSource);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Log of"), this));
    top->addWidget(m_picker);
    top->addWidget(m_where, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    updateStatus();
}

LogsPage::~LogsPage()
{
    m_view->setTail(nullptr);
}

void LogsPage::setSources(const QList<LogSource> &sources)
{
    m_view->setTail(nullptr);
    m_tail.reset();
    m_current = -1;
    m_sources = sources;
    m_picker->clear();
    for (const LogSource &s : sources)
        m_picker->addItem(s.label);
    m_picker->setCurrentIndex(-1);
    updateStatus();
}

void LogsPage::setSourcePath(int engine, const QString &path)
{
    for (int i = 0; i < m_sources.size(); ++i) {
        if (m_sources.at(i).engine != engine || engine < 0 || m_sources.at(i).path == path)
            continue;
        m_sources[i].path = path;
        if (i == m_current) {
            m_view->setTail(nullptr);
            m_tail.reset(); // showSource() follows the new file
            showSource(i);
        }
    }
}

bool LogsPage::showEngine(int engine)
{
    for (int i = 0; i < m_sources.size(); ++i) {
        if (m_sources.at(i).engine == engine && engine >= 0) {
            showSource(i);
            return true;
        }
    }
    return false;
}

bool LogsPage::showProxy()
{
    for (int i = 0; i < m_sources.size(); ++i) {
        if (m_sources.at(i).engine < 0 && m_sources.at(i).engineId == QLatin1String("proxy")) {
            showSource(i);
            return true;
        }
    }
    return false;
}

void LogsPage::showSource(int index)
{
    if (index < 0 || index >= m_sources.size())
        return;
    if (index == m_current && m_tail)
        return;
    m_view->setTail(nullptr);
    m_tail.reset();
    m_current = index;
    m_picker->setCurrentIndex(index);
    const LogSource source = m_sources.at(index);
    m_tail = std::make_unique<LogTail>(m_runner, source.target, source.path);
    m_tail->setEngine(source.engineId);
    connect(m_tail.get(), &LogTail::failed, this, [this](const QString &message) { updateStatus(message); });
    connect(m_tail.get(), &LogTail::polled, this, [this] { updateStatus(); });
    connect(m_tail.get(), &LogTail::diagnosed, this, [this, source](const DiagnosisEvent &event) { Q_EMIT diagnosed(source, event); });
    m_view->setTail(m_tail.get());
    m_tail->start();
    updateStatus();
}

QString LogsPage::statusText() const
{
    return m_where->text();
}

void LogsPage::updateStatus(const QString &problem)
{
    if (m_current < 0) {
        m_where->setText(m_sources.isEmpty() ? tr("No cluster open.") : tr("Pick the proxy or an engine, or use Show log on an engine."));
        return;
    }
    const LogSource &s = m_sources.at(m_current);
    QString text = tr("%1 on %2 (%3)").arg(s.path.toHtmlEscaped(), s.target.node.toHtmlEscaped(), s.target.host.toHtmlEscaped());
    if (!problem.isEmpty())
        text += QStringLiteral(" — ") + toneHtml(Tone::Bad, problem.toHtmlEscaped());
    m_where->setText(text);
}

} // namespace pd
