// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/nodecheckrun.h"

#include <QObject>
#include <QThreadPool>

#include <memory>

// GUI-thread facade over runNodeChecks(): start() returns at once; the blocking work runs on a worker
// thread (which fans out to a pool of at most options.maxParallel threads). Reports come back through
// queued signals tagged with the job id; a newer start() or cancel() makes older results disappear.
namespace pd {

class NodeCheckRunner final : public QObject {
    Q_OBJECT
public:
    explicit NodeCheckRunner(CommandRunner *runner, QObject *parent = nullptr);
    ~NodeCheckRunner() override;

    void setOptions(const NodeCheckOptions &options) { m_options = options; }
    const NodeCheckOptions &options() const { return m_options; }

    int start(const QList<NodeCheckTarget> &targets); // the job id
    void cancel();
    bool isRunning() const { return m_running; }
    int currentJob() const { return m_job; }

Q_SIGNALS:
    void nodeUpdated(int job, const pd::NodeReport &report);
    void finished(int job, const pd::ClusterReport &report);

private:
    CommandRunner *m_runner;
    NodeCheckOptions m_options;
    QThreadPool m_pool;
    std::shared_ptr<std::atomic_bool> m_cancel;
    int m_job = 0;
    bool m_running = false;
};

} // namespace pd
