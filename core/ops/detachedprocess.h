// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "state/enginestate.h"
#include "util/enumnames.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <chrono>

// A long-running process the console starts on a node, detached from the command that started it:
// an engine (`bash run_dp_template.sh <seven arguments>`) or the proxy. It lives in its own session
// (setsid), writes one log file, and is recorded in a pid file on the node. Every process carries the
// environment entry PDCONSOLE_PROCESS=<marker>: a pid file whose process does not carry it is stale
// (the PID was reused), and a running process whose pid file was lost is still found by its marker.
namespace pd {

struct DetachedProcess {
    QString label; // "engine d1:9000" in messages
    CommandTarget target; // where it runs
    QString runDir; // working directory on the node (created)
    QString pidFile; // absolute paths on the node
    QString logFile;
    QString marker; // value of PDCONSOLE_PROCESS, unique per process
    QList<QPair<QString, QString>> env; // further variables for the process, values quoted
    QString apiKeyVariable; // when set: OPENAI_API_KEY="${apiKeyVariable}" on the node
    QStringList program; // program and arguments, one word each
    QString requiredFile; // checked before starting (the template, the proxy script)
    bool reportCommandLine = false; // status also reads the running process's command line (the proxy's)
    // The TCP port the process serves (0: none). A process of ours is found by its marker; anything
    // else listening there was started outside pdconsole: adopted when its command line matches
    // `adoptPattern` (an extended regular expression: "vllm|pdsim engine" for engines), a conflict otherwise.
    int port = 0;
    QString adoptPattern;
    QString listenAddress; // the address it binds: a listener there or on the wildcard address holds the port
                           // (empty, or a host name: any listener on the port)
    // Run inside a container (`<containerTool> exec -i <containerName> bash -c ...`) when the name is set:
    // start, stop and status then see the container's processes and files.
    QString containerTool = QStringLiteral("docker");
    QString containerName;
    QStringList envScripts; // sourced in order before the program starts (CANN's set_env.sh); a missing one fails the start
};

enum class ProcessAction { Start, Stop, Restart, Status };
template<> inline constexpr std::size_t enumCount<ProcessAction> = std::size_t(ProcessAction::Status) + 1;
QString processActionName(ProcessAction action); // "start" | "stop" | "restart" | "status"

struct ControlTimings {
    std::chrono::milliseconds verifyDelay { 2000 }; // after start: still alive this much later = started
    std::chrono::milliseconds stopGrace { 30000 }; // SIGTERM -> SIGKILL
    std::chrono::milliseconds commandSlack { 30000 }; // transport allowance on top of the waits
    int logTailLines = 30;
};

// What one action did to one process.
struct ProcessOutcome {
    QString id; // the caller's key: an engine id "host:port", "proxy"
    QString label;
    ProcessAction action = ProcessAction::Status;
    bool ok = false;
    ProcessFact process = ProcessFact::Unknown;
    qint64 pid = 0;
    QString detail; // "started", "already running", "stopped (SIGTERM)", "killed after the grace period" ...
    QString error; // why it failed, naming the node
    QByteArray logTail; // the log's last lines when a start failed
    QStringList commandLine; // status of a running process with reportCommandLine (or adopted): its argv
    bool foreign = false;    // the process was started outside pdconsole (adopted by its port)
    QString foreignLog;      // where an adopted process writes (the file behind its stdout), when known
};

// Commands (pure: no effects, testable as text) ---------------------------------------------------

// Start unless already running (by pid file or by marker): prints `pd-started PID`,
// `pd-already-running PID` or `pd-exited PID` followed by the log's tail.
QByteArray startCommand(const DetachedProcess &process, const ControlTimings &timings, QString *error);
// SIGTERM to the session's process group, grace, SIGKILL, verify gone: `pd-stopped PID term|kill`,
// `pd-not-running`, `pd-stale PID`, or `pd-still-running PID` (exit 94).
QByteArray stopCommand(const DetachedProcess &process, const ControlTimings &timings, QString *error);
// One line per process, in order: `pd-status INDEX running|stale|none [PID] [found]`; for a running
// process with reportCommandLine also `pd-cmdline INDEX BASE64` (its /proc/PID/cmdline). With no process
// of ours but something listening on the port: `pd-status INDEX foreign|conflict PID` (or `busy` when
// the listener's PID cannot be seen), `pd-cmdline` and `pd-log INDEX PATH`.
QByteArray statusCommand(const QList<DetachedProcess> &processes, QString *error);
// Pid files in `directory` (relative to runDir or absolute) as `pd-pidfile PATH`.
QByteArray listPidFilesCommand(const QString &runDir, const QString &directory, QString *error);

// `command` as the node's runner runs it for `process`: wrapped in `<tool> exec -i <name> bash -c '...'`
// when the process lives in a container, as is otherwise.
QByteArray inProcessContainer(const DetachedProcess &process, const QByteArray &command);

// Blocking actions (worker threads only) ------------------------------------------------------------

ProcessOutcome startProcess(CommandRunner &runner, const DetachedProcess &process, const ControlTimings &timings);
ProcessOutcome stopProcess(CommandRunner &runner, const DetachedProcess &process, const ControlTimings &timings);
// The state of several processes on ONE node with one command.
QList<ProcessOutcome> processStatus(
    CommandRunner &runner, const QList<DetachedProcess> &processes, std::chrono::milliseconds timeout);

} // namespace pd
