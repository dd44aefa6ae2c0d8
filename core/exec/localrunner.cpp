// SPDX-License-Identifier: MIT
#include "exec/localrunner.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QProcess>

#include <csignal>
#include <unistd.h>

namespace pd {

namespace {

QString where(const CommandTarget &target)
{
    const QString node = target.node.isEmpty() ? QStringLiteral("local") : target.node;
    return QStringLiteral("%1 (%2, local shell)")
        .arg(node, target.host.isEmpty() ? QStringLiteral("localhost") : target.host);
}

// Appends what fits under the cap; counts the rest as dropped.
void capture(QByteArray &into, const QByteArray &chunk, qsizetype limit, qint64 &dropped)
{
    const qsizetype room = std::max<qsizetype>(0, limit - into.size());
    into.append(chunk.left(room));
    dropped += chunk.size() - std::min(room, chunk.size());
}

} // namespace

LocalRunner::LocalRunner(qsizetype captureLimit)
    : m_captureLimit(captureLimit)
{
}

CommandResult LocalRunner::run(
    const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout)
{
    CommandResult result;
    QElapsedTimer clock;
    clock.start();
    if (shellCommand.contains('\0')) {
        result.error = where(target) + QStringLiteral(": the command contains a NUL byte");
        return result;
    }
    QProcess process;
    process.setProgram(QStringLiteral("/bin/sh"));
    process.setArguments({ QStringLiteral("-c"), QString::fromUtf8(shellCommand) });
    process.setStandardInputFile(QProcess::nullDevice());
    if (!target.node.isEmpty()) {
        // One machine plays the nodes (the demo on 127.0.0.x): each shell knows which node it is.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PDCONSOLE_NODE"), target.node);
        process.setProcessEnvironment(env);
    }
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
    process.start();
    if (!process.waitForStarted(10000)) {
        result.error = where(target) + QStringLiteral(": cannot start /bin/sh: ") + process.errorString();
        result.elapsedMs = clock.elapsed();
        return result;
    }
    result.started = true;
    const qint64 group = process.processId();
    const QDeadlineTimer deadline(timeout);
    qint64 droppedOut = 0;
    qint64 droppedErr = 0;
    const auto drain = [&] {
        capture(result.out, process.readAllStandardOutput(), m_captureLimit, droppedOut);
        capture(result.err, process.readAllStandardError(), m_captureLimit, droppedErr);
    };
    while (process.state() != QProcess::NotRunning) {
        if (deadline.hasExpired()) {
            result.timedOut = true;
            ::kill(pid_t(-group), SIGKILL);
            process.waitForFinished(5000);
            break;
        }
        process.waitForFinished(int(std::clamp<qint64>(deadline.remainingTime(), 1, 50)));
        drain();
    }
    drain();
    // The shell is gone; descendants left in its group (not detached with setsid) would hold the
    // pipes open and outlive a command that should be over: end them.
    ::kill(pid_t(-group), SIGKILL);
    if (droppedOut > 0 || droppedErr > 0) {
        result.err.append(
            QStringLiteral("\n[pdconsole: output over %1 bytes dropped: %2 bytes of stdout, %3 of stderr]\n")
                .arg(m_captureLimit)
                .arg(droppedOut)
                .arg(droppedErr)
                .toUtf8());
    }
    result.elapsedMs = clock.elapsed();
    if (result.timedOut) {
        result.error = where(target)
            + QStringLiteral(": timed out after %1 ms; the command's process group was killed").arg(timeout.count());
        return result;
    }
    if (process.exitStatus() == QProcess::CrashExit) {
        result.error = where(target) + QStringLiteral(": /bin/sh was killed by a signal");
        return result;
    }
    result.exitStatus = process.exitCode();
    return result;
}

} // namespace pd
