// SPDX-License-Identifier: MIT
#include "ops/detachedprocess.h"

#include "logs/logtaildiagnosis.h"

#include "exec/containerexec.h"
#include "exec/shellarg.h"

#include "exec/shellcommand.h"

namespace pd {

namespace {

constexpr char kMarkerVariable[] = "PDCONSOLE_PROCESS";

// Shell functions every control command starts with (fixed text, no values):
// pd_alive SID MARKER: a live member of session SID carries the marker (zombies have an empty environ).
// pd_find MARKER: the session id of a live process carrying the marker (pid file lost), if any.
// pd_pid FILE: the number in a pid file, or nothing.
constexpr char kPrelude[] = R"(pd_alive() {
  for pd_p in $(ps -o pid= -s "$1" 2>/dev/null); do
    grep -qxzF -- "$2" "/proc/$pd_p/environ" 2>/dev/null && return 0
  done
  return 1
}
pd_find() {
  for pd_f in $(grep -lxzF -- "$1" /proc/[0-9]*/environ 2>/dev/null); do
    pd_p=${pd_f#/proc/}; pd_p=${pd_p%/environ}
    pd_s=$(ps -o sid= -p "$pd_p" 2>/dev/null | tr -d ' ')
    [ -n "$pd_s" ] && pd_alive "$pd_s" "$1" && { echo "$pd_s"; return 0; }
  done
  return 1
}
pd_pid() {
  pd_v=$(head -c 32 "$1" 2>/dev/null | tr -d ' \n')
  case $pd_v in ''|*[!0-9]*) return 0;; esac
  echo "$pd_v"
}
pd_port_owner() {
  [ "${1:-0}" -gt 0 ] 2>/dev/null || return 0
  command -v ss >/dev/null 2>&1 || return 0
  pd_l=$(ss -ltnpH "sport = :$1" 2>/dev/null | awk -v h="$2" -v p="$1" \
    '{ a = $4; if (h == "" || a == "0.0.0.0:" p || a == "*:" p || a == "[::]:" p || a == h ":" p || a == "[" h "]:" p) { print; exit } }')
  [ -n "$pd_l" ] || return 0
  pd_o=$(printf '%s\n' "$pd_l" | sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p')
  echo "${pd_o:-?}"
}
pd_is_kind() {
  [ -n "$2" ] && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -Eq -- "$2"
}
pd_b64() {
  base64 -w0 <"/proc/$1/cmdline" 2>/dev/null
}
pd_tree() {
  echo "$1"
  for pd_c in $(ps -o pid= --ppid "$1" 2>/dev/null); do pd_tree "$pd_c"; done
}
)";

QString markerLine(const DetachedProcess &process)
{
    return QLatin1String(kMarkerVariable) + QLatin1Char('=') + process.marker;
}

QString directoryOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash <= 0)
        return slash == 0 ? QStringLiteral("/") : QStringLiteral(".");
    return path.left(slash);
}

QString tenths(std::chrono::milliseconds ms)
{
    return QString::number(std::max<qint64>(1, (ms.count() + 99) / 100));
}

QString secondsText(std::chrono::milliseconds ms)
{
    return QString::number(double(ms.count()) / 1000.0, 'f', 1);
}

// The prefix every command shares: functions, the marker, the pid file's directory.
ShellCommand preamble(const DetachedProcess &process)
{
    ShellCommand c;
    c.syntax(kPrelude);
    c.syntax("mkdir -p")
        .word(QStringLiteral("run_dir"), process.runDir)
        .syntax("&& cd")
        .word(QStringLiteral("run_dir"), process.runDir)
        .syntax("|| exit 90")
        .newline();
    c.syntax("key=").gluedWord(QStringLiteral("marker of ") + process.label, markerLine(process)).newline();
    c.syntax("pidfile=").gluedWord(QStringLiteral("pid file of ") + process.label, process.pidFile).newline();
    return c;
}

QString where(const DetachedProcess &process)
{
    if (!process.containerName.isEmpty())
        return QStringLiteral("%1 on %2 (%3, container %4)").arg(process.label, process.target.node, process.target.host, process.containerName);
    return QStringLiteral("%1 on %2 (%3)").arg(process.label, process.target.node, process.target.host);
}

// Splits `pd-WORD ARGS` from the first line of out; the rest is the log tail.
struct Reply {
    QByteArray word;
    QList<QByteArray> args;
    QByteArray rest;
};

Reply parseReply(const QByteArray &out)
{
    Reply reply;
    const qsizetype start = out.indexOf("pd-");
    if (start < 0)
        return reply;
    qsizetype end = out.indexOf('\n', start);
    if (end < 0)
        end = out.size();
    const QList<QByteArray> words = out.mid(start, end - start).simplified().split(' ');
    reply.word = words.value(0);
    reply.args = words.mid(1);
    reply.rest = out.mid(end + 1);
    return reply;
}

QString transportError(const DetachedProcess &process, const CommandResult &result, const char *what)
{
    if (!result.error.isEmpty())
        return QStringLiteral("%1: %2: %3").arg(where(process), QLatin1String(what), result.error);
    QString text = QStringLiteral("%1: %2 failed with exit status %3")
                       .arg(where(process), QLatin1String(what))
                       .arg(result.exitStatus);
    const QByteArray err = result.err.trimmed();
    if (!err.isEmpty())
        text += QStringLiteral(": ") + QString::fromUtf8(err.right(600));
    return text;
}

// A command line as one line of text for messages, long ones cut in the middle of nothing important.
QString shortCommandLine(const QStringList &argv)
{
    QString text = argv.join(QLatin1Char(' '));
    if (text.size() > 240)
        text = text.left(237) + QStringLiteral("...");
    return text;
}

QStringList splitCommandLine(const QByteArray &raw)
{
    QStringList words;
    for (const QByteArray &w : raw.split('\0'))
        words << QString::fromUtf8(w);
    if (!words.isEmpty() && words.last().isEmpty())
        words.removeLast();
    return words;
}

} // namespace

QByteArray inProcessContainer(const DetachedProcess &process, const QByteArray &command)
{
    return inContainer(process.containerTool, process.containerName, command);
}

QString processActionName(ProcessAction action)
{
    static constexpr const char *names[] = { "start", "stop", "restart", "status" };
    return enumName(action, names, nullptr);
}

QByteArray startCommand(const DetachedProcess &process, const ControlTimings &timings, QString *error)
{
    const QString label = process.label;
    const QString logField = QStringLiteral("log file of ") + label;
    ShellCommand c = preamble(process);
    c.syntax("mkdir -p")
        .word(QStringLiteral("pid file directory"), directoryOf(process.pidFile))
        .word(QStringLiteral("log directory"), directoryOf(process.logFile))
        .syntax("|| exit 90")
        .newline();
    // Never a second copy: the recorded PID, else any live process carrying the marker.
    c.syntax("pid=$(pd_pid \"$pidfile\")").newline();
    c.syntax("if [ -n \"$pid\" ] && pd_alive \"$pid\" \"$key\"; then echo \"pd-already-running $pid\"; exit 0; fi")
        .newline();
    c.syntax("if pid=$(pd_find \"$key\"); then echo \"$pid\" >\"$pidfile\"; echo \"pd-already-running $pid found\"; "
             "exit 0; fi")
        .newline();
    // Not ours, but something serves the port: an engine started outside pdconsole runs already (adopted);
    // anything else holds the port and a second process could not bind it.
    c.syntax("pd_port=").gluedWord(QStringLiteral("port of ") + label, QString::number(process.port)).newline();
    c.syntax("pd_kind=").gluedWord(QStringLiteral("adopt pattern of ") + label, process.adoptPattern).newline();
    c.syntax("pd_host=").gluedWord(QStringLiteral("address of ") + label, process.listenAddress).newline();
    c.syntax("o=$(pd_port_owner \"$pd_port\" \"$pd_host\")").newline();
    c.syntax("if [ -n \"$o\" ] && [ \"$o\" != \"?\" ] && pd_is_kind \"$o\" \"$pd_kind\"; then echo \"pd-already-running $o foreign "
             "$(pd_b64 \"$o\")\"; exit 0; fi")
        .newline();
    c.syntax("if [ -n \"$o\" ]; then echo \"pd-port-busy $o $(pd_b64 \"$o\" 2>/dev/null)\"; exit 96; fi").newline();
    if (!process.requiredFile.isEmpty()) {
        // The script (template or proxy) must exist: say which, rather than a bare log line.
        c.syntax("[ -f")
            .word(QStringLiteral("script of ") + label, process.requiredFile)
            .syntax("] || { echo pd-missing; exit 91; }")
            .newline();
    }
    if (!process.apiKeyVariable.isEmpty())
        c.requireVariable(QStringLiteral("api_key_env of ") + label, process.apiKeyVariable).newline();
    // Keep the previous run's log beside the new one.
    c.syntax("[ -f")
        .word(logField, process.logFile)
        .syntax("] && mv -f")
        .word(logField, process.logFile)
        .word(logField, process.logFile + QStringLiteral(".1"))
        .newline();
    // The environment scripts (CANN's set_env.sh files), sourced in this shell so the process inherits
    // what they export; a missing one is named rather than leaving `vllm` off the PATH.
    for (const QString &script : process.envScripts) {
        c.syntax("[ -f").word(QStringLiteral("env script of ") + label, script)
            .syntax("] || { echo pd-missing-env").word(QStringLiteral("env script of ") + label, script).syntax("; exit 97; }")
            .newline();
        c.syntax(".").word(QStringLiteral("env script of ") + label, script).syntax(">/dev/null 2>&1").newline();
    }
    c.assignment(QStringLiteral("marker of ") + label, QLatin1String(kMarkerVariable), process.marker);
    for (const auto &[name, value] : process.env)
        c.assignment(QStringLiteral("environment %1 of %2").arg(name, label), name, value);
    if (!process.apiKeyVariable.isEmpty()) {
        c.assignmentFromVariable(
            QStringLiteral("api_key_env of ") + label, QStringLiteral("OPENAI_API_KEY"), process.apiKeyVariable);
    }
    c.syntax("setsid nohup").words(QStringLiteral("command of ") + label, process.program);
    c.syntax(">").word(logField, process.logFile).syntax("2>&1 </dev/null &").newline();
    c.syntax("pid=$!").newline();
    // Until setsid has run the child is neither a session leader nor carrying the marker: wait for
    // that (or its end) before judging it, so a slow fork is not taken for a failed start.
    c.syntax("pd_n=0; while [ \"$pd_n\" -lt 100 ]; do pd_s=$(ps -o sid= -p \"$pid\" 2>/dev/null | tr -d ' ');"
             " [ \"$pd_s\" = \"$pid\" ] || [ -z \"$pd_s\" ] && break; sleep 0.05; pd_n=$((pd_n+1)); done")
        .newline();
    c.syntax("echo \"$pid\" >\"$pidfile.tmp\" && mv -f \"$pidfile.tmp\" \"$pidfile\" || exit 92").newline();
    // Verify: alive after the delay (a template that fails at once is dead by then). The leader's PID
    // is polled cheaply; the marker is checked once at the end.
    c.syntax("pd_n=0; while [ \"$pd_n\" -lt")
        .word(QStringLiteral("verify delay"), tenths(timings.verifyDelay))
        .syntax("]; do sleep 0.1; pd_n=$((pd_n+1)); kill -0 \"$pid\" 2>/dev/null || break; done")
        .newline();
    c.syntax("if pd_alive \"$pid\" \"$key\"; then echo \"pd-started $pid\"; exit 0; fi").newline();
    c.syntax("rm -f \"$pidfile\"; echo \"pd-exited $pid\"; tail -n")
        .word(QStringLiteral("log tail lines"), QString::number(timings.logTailLines))
        .word(logField, process.logFile)
        .syntax("; exit 93")
        .newline();
    if (!c.isValid()) {
        if (error)
            *error = where(process) + QStringLiteral(": ") + c.error();
        return {};
    }
    return c.line();
}

QByteArray stopCommand(const DetachedProcess &process, const ControlTimings &timings, QString *error)
{
    ShellCommand c = preamble(process);
    c.syntax("pid=$(pd_pid \"$pidfile\")").newline();
    c.syntax("pd_port=").gluedWord(QStringLiteral("port of ") + process.label, QString::number(process.port)).newline();
    c.syntax("pd_kind=").gluedWord(QStringLiteral("adopt pattern of ") + process.label, process.adoptPattern).newline();
    c.syntax("pd_host=").gluedWord(QStringLiteral("address of ") + process.label, process.listenAddress).newline();
    c.syntax("if [ -z \"$pid\" ] || ! pd_alive \"$pid\" \"$key\"; then").newline();
    // No live recorded process: one carrying the marker without a pid file is still ours to stop.
    c.syntax("  if ! pd_find \"$key\" >/dev/null; then").newline();
    // Nothing of ours: an engine started outside pdconsole on the port is stopped (TERM to its own process
    // group when it leads one, else to it and its descendants; KILL after the grace; done when the port
    // is free). Anything else on the port is never touched.
    c.syntax("    o=$(pd_port_owner \"$pd_port\" \"$pd_host\")").newline();
    c.syntax("    if [ \"$o\" = \"?\" ]; then echo pd-port-hidden; exit 95; fi").newline();
    c.syntax("    if [ -n \"$o\" ] && ! pd_is_kind \"$o\" \"$pd_kind\"; then echo \"pd-conflict $o $(pd_b64 \"$o\")\"; exit 95; fi").newline();
    c.syntax("    if [ -n \"$o\" ]; then").newline();
    c.syntax("      pd_g=$(ps -o pgid= -p \"$o\" 2>/dev/null | tr -d ' ')").newline();
    c.syntax("      if [ \"$pd_g\" = \"$o\" ]; then pd_sig() { kill -s \"$1\" -- \"-$o\" 2>/dev/null; }; "
             "else pd_sig() { kill -s \"$1\" $(pd_tree \"$o\") 2>/dev/null; }; fi")
        .newline();
    c.syntax("      how=term; pd_sig TERM").newline();
    c.syntax("      pd_n=0; while [ \"$pd_n\" -lt")
        .word(QStringLiteral("stop grace"), tenths(timings.stopGrace))
        .syntax("] && [ -n \"$(pd_port_owner \"$pd_port\" \"$pd_host\")\" ]; do sleep 0.1; pd_n=$((pd_n+1)); done")
        .newline();
    c.syntax("      if [ -n \"$(pd_port_owner \"$pd_port\" \"$pd_host\")\" ]; then how=kill; pd_sig KILL; pd_n=0; "
             "while [ \"$pd_n\" -lt 100 ] && [ -n \"$(pd_port_owner \"$pd_port\" \"$pd_host\")\" ]; do sleep 0.1; pd_n=$((pd_n+1)); done; fi")
        .newline();
    c.syntax("      if [ -n \"$(pd_port_owner \"$pd_port\" \"$pd_host\")\" ]; then echo \"pd-still-running $o\"; exit 94; fi").newline();
    c.syntax("      echo \"pd-stopped $o $how foreign\"; exit 0").newline();
    c.syntax("    fi").newline();
    c.syntax("  fi").newline();
    c.syntax("  if found=$(pd_find \"$key\"); then pid=$found; else").newline();
    c.syntax("    if [ -n \"$pid\" ]; then rm -f \"$pidfile\"; echo \"pd-stale $pid\"; else echo pd-not-running; fi; "
             "exit 0")
        .newline();
    c.syntax("  fi").newline();
    c.syntax("fi").newline();
    c.syntax("how=term").newline();
    c.syntax("kill -s TERM -- \"-$pid\" 2>/dev/null || kill -s TERM \"$pid\" 2>/dev/null").newline();
    c.syntax("pd_n=0; while [ \"$pd_n\" -lt")
        .word(QStringLiteral("stop grace"), tenths(timings.stopGrace))
        .syntax("] && pd_alive \"$pid\" \"$key\"; do sleep 0.1; pd_n=$((pd_n+1)); done")
        .newline();
    c.syntax("if pd_alive \"$pid\" \"$key\"; then").newline();
    c.syntax("  how=kill").newline();
    c.syntax("  kill -s KILL -- \"-$pid\" 2>/dev/null").newline();
    // Members that left the group but stayed in the session get SIGKILL one by one.
    c.syntax("  for pd_p in $(ps -o pid= -s \"$pid\" 2>/dev/null); do kill -s KILL \"$pd_p\" 2>/dev/null; done")
        .newline();
    c.syntax(
         "  pd_n=0; while [ \"$pd_n\" -lt 100 ] && pd_alive \"$pid\" \"$key\"; do sleep 0.1; pd_n=$((pd_n+1)); done")
        .newline();
    c.syntax("fi").newline();
    c.syntax("if pd_alive \"$pid\" \"$key\"; then echo \"pd-still-running $pid\"; exit 94; fi").newline();
    c.syntax("rm -f \"$pidfile\"; echo \"pd-stopped $pid $how\"").newline();
    if (!c.isValid()) {
        if (error)
            *error = where(process) + QStringLiteral(": ") + c.error();
        return {};
    }
    return c.line();
}

QByteArray statusCommand(const QList<DetachedProcess> &processes, QString *error)
{
    ShellCommand c;
    c.syntax(kPrelude);
    if (!processes.isEmpty()) {
        c.syntax("cd").word(QStringLiteral("run_dir"), processes.first().runDir).syntax("2>/dev/null").newline();
    }
    c.syntax(R"SH(pd_cmdline() {
  [ "$3" = 1 ] && echo "pd-cmdline $1 $(base64 -w0 <"/proc/$2/cmdline" 2>/dev/null)"
  return 0
}
pd_status() {
  pid=$(pd_pid "$2")
  if [ -n "$pid" ] && pd_alive "$pid" "$3"; then echo "pd-status $1 running $pid"; pd_cmdline "$1" "$pid" "$4"; return; fi
  if found=$(pd_find "$3"); then echo "pd-status $1 running $found found"; pd_cmdline "$1" "$found" "$4"; return; fi
  o=$(pd_port_owner "$5" "$7")
  if [ "$o" = "?" ]; then echo "pd-status $1 busy"; return; fi
  if [ -n "$o" ]; then
    if pd_is_kind "$o" "$6"; then echo "pd-status $1 foreign $o"; else echo "pd-status $1 conflict $o"; fi
    echo "pd-cmdline $1 $(pd_b64 "$o")"
    echo "pd-log $1 $(readlink "/proc/$o/fd/1" 2>/dev/null)"
    return
  fi
  if [ -n "$pid" ]; then echo "pd-status $1 stale $pid"; else echo "pd-status $1 none"; fi
}
)SH");
    for (int i = 0; i < processes.size(); ++i) {
        const DetachedProcess &p = processes.at(i);
        c.syntax("pd_status")
            .word(QStringLiteral("index"), QString::number(i))
            .word(QStringLiteral("pid file of ") + p.label, p.pidFile)
            .word(QStringLiteral("marker of ") + p.label, markerLine(p))
            .word(QStringLiteral("command line flag"), p.reportCommandLine ? QStringLiteral("1") : QStringLiteral("0"))
            .word(QStringLiteral("port of ") + p.label, QString::number(p.port))
            .word(QStringLiteral("adopt pattern of ") + p.label, p.adoptPattern)
            .word(QStringLiteral("address of ") + p.label, p.listenAddress)
            .newline();
    }
    if (!c.isValid()) {
        if (error)
            *error = c.error();
        return {};
    }
    return c.line();
}

QByteArray listPidFilesCommand(const QString &runDir, const QString &directory, QString *error)
{
    ShellCommand c;
    c.syntax("cd").word(QStringLiteral("run_dir"), runDir).syntax("2>/dev/null || exit 0").newline();
    c.syntax("cd").word(QStringLiteral("pid directory"), directory).syntax("2>/dev/null || exit 0").newline();
    c.syntax("for f in *.pid; do [ -f \"$f\" ] && echo \"pd-pidfile $f\"; done; true");
    if (!c.isValid()) {
        if (error)
            *error = c.error();
        return {};
    }
    return c.line();
}

ProcessOutcome startProcess(CommandRunner &runner, const DetachedProcess &process, const ControlTimings &timings)
{
    ProcessOutcome outcome;
    outcome.label = process.label;
    outcome.action = ProcessAction::Start;
    QString error;
    const QByteArray command = startCommand(process, timings, &error);
    if (command.isEmpty()) {
        outcome.error = error;
        return outcome;
    }
    const CommandResult result = runner.run(process.target, inProcessContainer(process, command), timings.verifyDelay + timings.commandSlack);
    const Reply reply = parseReply(result.out);
    if (!result.error.isEmpty() || reply.word.isEmpty()) {
        outcome.error = transportError(process, result, "start");
        return outcome;
    }
    outcome.pid = reply.args.value(0).toLongLong();
    if (reply.word == "pd-started" && result.exitStatus == 0) {
        outcome.ok = true;
        outcome.process = ProcessFact::Running;
        outcome.detail = QStringLiteral("started, PID %1, log %2").arg(outcome.pid).arg(process.logFile);
    } else if (reply.word == "pd-already-running") {
        outcome.ok = true;
        outcome.process = ProcessFact::Running;
        if (reply.args.value(1) == "foreign") {
            outcome.foreign = true;
            outcome.commandLine = splitCommandLine(QByteArray::fromBase64(reply.args.value(2)));
            outcome.detail = QStringLiteral("already running, started outside pdconsole, PID %1: %2")
                                 .arg(outcome.pid)
                                 .arg(shortCommandLine(outcome.commandLine));
        } else {
            outcome.detail = reply.args.value(1) == "found"
                ? QStringLiteral("already running as PID %1 (found by its marker; pid file rewritten)").arg(outcome.pid)
                : QStringLiteral("already running as PID %1").arg(outcome.pid);
        }
    } else if (reply.word == "pd-port-busy") {
        outcome.process = ProcessFact::Exited;
        const QString owner = reply.args.value(0) == "?"
            ? QStringLiteral("a process this user cannot see")
            : QStringLiteral("PID %1 (%2)").arg(QString::fromLatin1(reply.args.value(0)),
                                                shortCommandLine(splitCommandLine(QByteArray::fromBase64(reply.args.value(1)))));
        outcome.error = QStringLiteral("%1: port %2 is already in use by %3: not started").arg(where(process)).arg(process.port).arg(owner);
    } else if (reply.word == "pd-missing-env") {
        outcome.process = ProcessFact::Exited;
        outcome.error = QStringLiteral("%1: environment script %2 does not exist").arg(where(process), QString::fromUtf8(reply.args.value(0)));
    } else if (reply.word == "pd-missing") {
        outcome.process = ProcessFact::Exited;
        outcome.error
            = QStringLiteral("%1: %2 does not exist in %3").arg(where(process), process.requiredFile, process.runDir);
    } else if (reply.word == "pd-exited") {
        outcome.process = ProcessFact::Exited;
        outcome.logTail = reply.rest;
        outcome.error = QStringLiteral("%1: exited within %2 s of starting (PID %3); log %4")
                            .arg(where(process), secondsText(timings.verifyDelay))
                            .arg(outcome.pid)
                            .arg(process.logFile);
        // The tail's first known signature is the cause an operator would look for: say it here, where
        // the failed start is reported (operation result, pdctl's summary), not only in the Logs tab.
        if (const std::optional<LogTailDiagnosis> cause = diagnoseLogTail(outcome.logTail))
            outcome.error += QStringLiteral("; ") + cause->text();
    } else {
        outcome.error = transportError(process, result, "start");
    }
    return outcome;
}

ProcessOutcome stopProcess(CommandRunner &runner, const DetachedProcess &process, const ControlTimings &timings)
{
    ProcessOutcome outcome;
    outcome.label = process.label;
    outcome.action = ProcessAction::Stop;
    QString error;
    const QByteArray command = stopCommand(process, timings, &error);
    if (command.isEmpty()) {
        outcome.error = error;
        return outcome;
    }
    const CommandResult result
        = runner.run(process.target, inProcessContainer(process, command), timings.stopGrace + std::chrono::seconds(10) + timings.commandSlack);
    const Reply reply = parseReply(result.out);
    if (!result.error.isEmpty() || reply.word.isEmpty()) {
        outcome.error = transportError(process, result, "stop");
        return outcome;
    }
    outcome.pid = reply.args.value(0).toLongLong();
    if (reply.word == "pd-stopped") {
        outcome.ok = true;
        outcome.process = ProcessFact::Exited;
        outcome.foreign = reply.args.value(2) == "foreign";
        outcome.detail = (outcome.foreign ? QStringLiteral("(started outside pdconsole) ") : QString())
            + (reply.args.value(1) == "kill"
            ? QStringLiteral("killed (SIGKILL) after a %1 s grace period, PID %2")
                  .arg(secondsText(timings.stopGrace))
                  .arg(outcome.pid)
            : QStringLiteral("stopped by SIGTERM, PID %1").arg(outcome.pid));
    } else if (reply.word == "pd-conflict") {
        outcome.process = ProcessFact::Exited;
        outcome.error = QStringLiteral("%1: not running; port %2 is held by PID %3 (%4), which is not this process: not stopped")
                            .arg(where(process))
                            .arg(process.port)
                            .arg(outcome.pid)
                            .arg(shortCommandLine(splitCommandLine(QByteArray::fromBase64(reply.args.value(1)))));
    } else if (reply.word == "pd-port-hidden") {
        outcome.error = QStringLiteral("%1: port %2 is held by a process this user cannot see: not stopped").arg(where(process)).arg(process.port);
    } else if (reply.word == "pd-not-running") {
        outcome.ok = true;
        outcome.process = ProcessFact::Exited;
        outcome.detail = QStringLiteral("was not running");
    } else if (reply.word == "pd-stale") {
        outcome.ok = true;
        outcome.process = ProcessFact::Exited;
        outcome.detail = QStringLiteral("was not running (stale pid file for PID %1 removed)").arg(outcome.pid);
    } else if (reply.word == "pd-still-running") {
        outcome.process = ProcessFact::Running;
        outcome.error = QStringLiteral("%1: PID %2 survived SIGTERM and SIGKILL").arg(where(process)).arg(outcome.pid);
    } else {
        outcome.error = transportError(process, result, "stop");
    }
    return outcome;
}

// /proc/PID/cmdline: NUL-terminated words.
QList<ProcessOutcome> processStatus(
    CommandRunner &runner, const QList<DetachedProcess> &processes, std::chrono::milliseconds timeout)
{
    QList<ProcessOutcome> outcomes;
    for (const DetachedProcess &p : processes) {
        ProcessOutcome o;
        o.label = p.label;
        o.action = ProcessAction::Status;
        outcomes.append(o);
    }
    if (processes.isEmpty())
        return outcomes;
    QString error;
    const QByteArray command = statusCommand(processes, &error);
    CommandResult result;
    if (!command.isEmpty())
        result = runner.run(processes.first().target, inProcessContainer(processes.first(), command), timeout); // one node, one container
    const QList<QByteArray> lines = result.out.split('\n');
    QList<bool> seen(processes.size(), false);
    for (const QByteArray &line : lines) {
        const QList<QByteArray> w = line.simplified().split(' ');
        if (w.value(0) == "pd-cmdline" || w.value(0) == "pd-log") {
            bool good = false;
            const int index = w.value(1).toInt(&good);
            if (!good || index < 0 || index >= outcomes.size())
                continue;
            if (w.value(0) == "pd-cmdline")
                outcomes[index].commandLine = splitCommandLine(QByteArray::fromBase64(w.value(2)));
            else {
                const QByteArray t = line.simplified();
                const qsizetype path = t.indexOf(' ', t.indexOf(' ') + 1);
                outcomes[index].foreignLog = path < 0 ? QString() : QString::fromUtf8(t.mid(path + 1));
            }
            continue;
        }
        if (w.value(0) != "pd-status")
            continue;
        bool good = false;
        const int index = w.value(1).toInt(&good);
        if (!good || index < 0 || index >= outcomes.size())
            continue;
        ProcessOutcome &o = outcomes[index];
        const DetachedProcess &p = processes.at(index);
        seen[index] = true;
        o.ok = true;
        o.pid = w.value(3).toLongLong();
        if (w.value(2) == "running") {
            o.process = ProcessFact::Running;
            o.detail = w.value(4) == "found"
                ? QStringLiteral("running, PID %1 (found by its marker, no pid file)").arg(o.pid)
                : QStringLiteral("running, PID %1").arg(o.pid);
        } else if (w.value(2) == "foreign") {
            o.process = ProcessFact::Running;
            o.foreign = true;
            o.detail = QStringLiteral("running, started outside pdconsole, PID %1").arg(o.pid);
        } else if (w.value(2) == "conflict") {
            o.process = ProcessFact::Exited;
            o.detail = QStringLiteral("not running; port %1 is held by PID %2, which is not %3").arg(p.port).arg(o.pid).arg(p.label);
        } else if (w.value(2) == "busy") {
            o.process = ProcessFact::Exited;
            o.detail = QStringLiteral("not running; port %1 is held by a process this user cannot see").arg(p.port);
        } else if (w.value(2) == "stale") {
            o.process = ProcessFact::Exited;
            o.detail = QStringLiteral("not running (stale pid file %1 names PID %2)").arg(p.pidFile).arg(o.pid);
        } else {
            o.process = ProcessFact::Exited;
            o.detail = QStringLiteral("not running (no pid file)");
        }
    }
    for (int i = 0; i < outcomes.size(); ++i) {
        ProcessOutcome &o = outcomes[i];
        if (seen.at(i) && !o.commandLine.isEmpty() && (o.foreign || o.detail.contains(QLatin1String("is held by PID")))) {
            o.detail += QStringLiteral(": %1").arg(shortCommandLine(o.commandLine));
            if (o.foreign && !o.foreignLog.isEmpty())
                o.detail += QStringLiteral("; log %1").arg(o.foreignLog);
        }
        if (seen.at(i))
            continue;
        outcomes[i].error = command.isEmpty() ? where(processes.at(i)) + QStringLiteral(": ") + error
                                              : transportError(processes.at(i), result, "status");
    }
    return outcomes;
}

} // namespace pd
