// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "logs/diagnosisevent.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;

// The Logs tab: pick the proxy or any engine, follow its log file on its node (through the node's
// runner: local or SSH), with the LogView's follow, pause, search and jump to the first error, and the
// known signatures diagnosed. One tail at a time; switching source stops the previous one. Diagnoses are
// forwarded (diagnosed()) so the window can put them on the timeline and in triage.
namespace pd {

class LogTail;
class LogView;

struct LogSource {
    QString label;        // "d1 · 127.0.0.7:9003 (DP 19)", "proxy 127.0.0.1:8000"
    QString engineId;     // "host:port", or "proxy"
    int engine = -1;      // index in the profile's engines, -1 for the proxy
    CommandTarget target; // the node the file is on
    QString path;         // the log file there
};

class LogsPage final : public QWidget {
    Q_OBJECT
public:
    // `runner` reaches every node (a RoutingRunner); not owned, outlives the page.
    explicit LogsPage(CommandRunner *runner, QWidget *parent = nullptr);
    ~LogsPage() override;

    void setSources(const QList<LogSource> &sources);
    // Another file for one engine's log (an engine started outside pdconsole); the tail follows it at
    // once when that engine's log is open. Unchanged paths change nothing.
    void setSourcePath(int engine, const QString &path);
    const QList<LogSource> &sources() const { return m_sources; }
    // Follows the engine's log (index in the profile's engines); false when it has no source.
    bool showEngine(int engine);
    bool showProxy(); // follows the proxy's log; false when it has no source
    void showSource(int index);
    int currentSource() const { return m_current; }

    LogView *view() const { return m_view; }
    LogTail *tail() const { return m_tail.get(); }
    QString statusText() const;

Q_SIGNALS:
    void diagnosed(const pd::LogSource &source, const pd::DiagnosisEvent &event);

private:
    void updateStatus(const QString &problem = {});

    CommandRunner *m_runner;
    QList<LogSource> m_sources;
    int m_current = -1;
    std::unique_ptr<LogTail> m_tail;
    QComboBox *m_picker;
    QLabel *m_where;
    LogView *m_view;
};

} // namespace pd
