// SPDX-License-Identifier: MIT
#include "nodecheck/nodecheckrunner.h"

namespace pd {

NodeCheckRunner::NodeCheckRunner(CommandRunner *runner, QObject *parent)
    : QObject(parent)
    , m_runner(runner)
{
    m_pool.setMaxThreadCount(2); // one job at a time plus a cancelled one finishing
}

NodeCheckRunner::~NodeCheckRunner()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

int NodeCheckRunner::start(const QList<NodeCheckTarget> &targets)
{
    cancel();
    const int job = ++m_job;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_running = true;
    auto cancelFlag = m_cancel;
    CommandRunner *runner = m_runner;
    const NodeCheckOptions options = m_options;
    m_pool.start([this, job, cancelFlag, runner, options, targets] {
        const ClusterReport report = runNodeChecks(
            *runner, targets, options,
            [this, job, cancelFlag](const NodeReport &node) {
                if (cancelFlag->load())
                    return;
                QMetaObject::invokeMethod(
                    this,
                    [this, job, node] {
                        if (job == m_job)
                            Q_EMIT nodeUpdated(job, node);
                    },
                    Qt::QueuedConnection);
            },
            cancelFlag.get());
        QMetaObject::invokeMethod(
            this,
            [this, job, report, cancelFlag] {
                if (job != m_job || cancelFlag->load())
                    return;
                m_running = false;
                Q_EMIT finished(job, report);
            },
            Qt::QueuedConnection);
    });
    return job;
}

void NodeCheckRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
    m_running = false;
}

} // namespace pd
