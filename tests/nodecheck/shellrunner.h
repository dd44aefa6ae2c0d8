// SPDX-License-Identifier: MIT
#pragma once

// The smallest honest CommandRunner for tests: runs the command with /bin/sh on this machine (its own
// process group, killed as a group on timeout), with per-node environment so one machine plays several
// nodes. Nodes listed in `refused` answer like an SSH connection that was refused (the command never
// starts), which is the transport's job to report and not something /bin/sh can simulate.
#include "exec/commandrunner.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QSet>

#include <atomic>
#include <csignal>
#include <unistd.h>

class ShellRunner final : public pd::CommandRunner {
public:
    QHash<QString, QHash<QString, QString>> env; // node -> VAR -> value
    QSet<QString> refused;
    std::atomic<int> calls { 0 };

    QHash<QString, int> callsPerNode() const
    {
        QMutexLocker lock(&m_mutex);
        return m_perNode;
    }

    pd::CommandResult run(
        const pd::CommandTarget &target, const QByteArray &command, std::chrono::milliseconds timeout) override
    {
        ++calls;
        {
            QMutexLocker lock(&m_mutex);
            m_perNode[target.node] += 1;
        }
        pd::CommandResult r;
        if (refused.contains(target.node)) {
            r.error = QStringLiteral("%1 (%2:%3): connection refused").arg(target.node, target.host).arg(target.port);
            return r;
        }
        QElapsedTimer clock;
        clock.start();
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        const auto vars = env.value(target.node);
        for (auto it = vars.begin(); it != vars.end(); ++it)
            e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
        p.setChildProcessModifier([] { ::setpgid(0, 0); });
        p.start(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), QString::fromUtf8(command) });
        if (!p.waitForStarted(5000)) {
            r.error = target.node + QStringLiteral(": /bin/sh did not start: ") + p.errorString();
            return r;
        }
        r.started = true;
        const qint64 pid = p.processId();
        if (!p.waitForFinished(int(timeout.count()))) {
            r.timedOut = true;
            ::kill(-pid_t(pid), SIGKILL); // the group we started, by its id
            p.waitForFinished(5000);
        } else {
            r.exitStatus = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        }
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        r.elapsedMs = clock.elapsed();
        return r;
    }

private:
    mutable QMutex m_mutex;
    QHash<QString, int> m_perNode;
};
