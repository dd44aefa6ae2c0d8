// SPDX-License-Identifier: MIT
#include "ops/runnerenginecontrol.h"

#include "ops/enginecontroller.h"
#include "ops/operationsummary.h"

namespace pd {

namespace {

QString firstError(const OperationSummary &summary)
{
    for (const ProcessOutcome &o : summary.outcomes) {
        if (!o.ok)
            return o.error.isEmpty() ? summary.text() : o.error;
    }
    return summary.outcomes.isEmpty() ? QStringLiteral("no outcome for the engine") : QString();
}

using Finished = std::function<void(const OperationSummary &)>;

// A summary of one process as a ControlResult: its first failure, or ok.
Finished resultOf(EngineControl::Done done)
{
    return [done = std::move(done)](const OperationSummary &summary) {
        const QString error = firstError(summary);
        done(ControlResult {
            error.isEmpty(), error, summary.outcomes.isEmpty() ? QString() : summary.outcomes.constFirst().detail });
    };
}

// A status summary of one process as running / not running / unknown.
Finished runningOf(EngineControl::RunningDone done)
{
    return [done = std::move(done)](const OperationSummary &summary) {
        const QString error = firstError(summary);
        if (!error.isEmpty()) {
            done(std::nullopt, error);
            return;
        }
        const ProcessFact fact = summary.outcomes.constFirst().process;
        if (fact == ProcessFact::Unknown)
            done(std::nullopt, QStringLiteral("process state unknown"));
        else
            done(fact == ProcessFact::Running, QString());
    };
}

} // namespace

RunnerEngineControl::RunnerEngineControl(EngineController *controller, QObject *parent)
    : EngineControl(parent)
    , m_controller(controller)
{
    connect(m_controller, &EngineController::operationFinished, this, &RunnerEngineControl::onFinished);
}

void RunnerEngineControl::run(const EngineRef &engine, const std::function<int(const QList<Engine> &)> &launch,
    Finished finished, const std::function<void(const QString &)> &unknown)
{
    QStringList missing;
    const QList<Engine> engines = m_controller->enginesById({ engine.id }, &missing);
    if (engines.isEmpty()) {
        unknown(QStringLiteral("%1: not an engine of the profile").arg(engine.id));
        return;
    }
    const int id = launch(engines);
    m_pending.insert(id, std::move(finished));
}

void RunnerEngineControl::onFinished(const OperationSummary &summary)
{
    const auto it = m_pending.find(summary.id);
    if (it == m_pending.end())
        return; // an operation someone else started on the same controller
    const Finished finished = it.value();
    m_pending.erase(it);
    finished(summary);
}

void RunnerEngineControl::preflight(const EngineRef &engine, PreflightDone done)
{
    run(
        engine, [this](const QList<Engine> &e) { return m_controller->refreshEngines(e); },
        [engine, done](const OperationSummary &summary) {
            PreflightReport report;
            const QString error = firstError(summary);
            if (!error.isEmpty()) {
                report.error = QStringLiteral("node %1 not reachable through its runner: %2").arg(engine.node, error);
                done(report);
                return;
            }
            const ProcessOutcome &o = summary.outcomes.constFirst();
            report.ok = true;
            report.passed << QStringLiteral("node %1 answers through its runner").arg(engine.node)
                          << (o.process == ProcessFact::Running
                                     ? QStringLiteral("engine %1 already runs (PID %2): it is not started twice")
                                           .arg(engine.id)
                                           .arg(o.pid)
                                     : QStringLiteral("engine %1 is not running").arg(engine.id))
                          << QStringLiteral("NPU health is not probed here: run the node checks first");
            done(report);
        },
        [done](const QString &error) {
            done(PreflightReport { false, {}, error });
        });
}

void RunnerEngineControl::start(const EngineRef &engine, Done done)
{
    run(
        engine, [this](const QList<Engine> &e) { return m_controller->startEngines(e); }, resultOf(done),
        [done](const QString &error) {
            done(ControlResult { false, error, {} });
        });
}

void RunnerEngineControl::stop(const EngineRef &engine, Done done)
{
    run(
        engine, [this](const QList<Engine> &e) { return m_controller->stopEngines(e); }, resultOf(done),
        [done](const QString &error) {
            done(ControlResult { false, error, {} });
        });
}

void RunnerEngineControl::isRunning(const EngineRef &engine, RunningDone done)
{
    run(
        engine, [this](const QList<Engine> &e) { return m_controller->refreshEngines(e); }, runningOf(done),
        [done](const QString &error) { done(std::nullopt, error); });
}

// The controller answers every proxy call later (queued), even one it refuses at once (no script_path):
// the pending entry is in place before the summary can arrive.
void RunnerEngineControl::startProxy(Done done)
{
    expect(m_controller->startProxy(), resultOf(std::move(done)));
}

void RunnerEngineControl::startProxyWith(const ProxyLists &lists, Done done)
{
    expect(m_controller->startProxyWith(lists), resultOf(std::move(done)));
}

void RunnerEngineControl::stopProxy(Done done)
{
    expect(m_controller->stopProxy(), resultOf(std::move(done)));
}

void RunnerEngineControl::isProxyRunning(RunningDone done)
{
    expect(m_controller->refreshProxy(), runningOf(std::move(done)));
}

void RunnerEngineControl::proxyCommandLine(CommandLineDone done)
{
    expect(m_controller->refreshProxy(), [done = std::move(done)](const OperationSummary &summary) {
        const QString error = firstError(summary);
        if (!error.isEmpty())
            return done(std::nullopt, error);
        const ProcessOutcome &o = summary.outcomes.constFirst();
        if (o.process != ProcessFact::Running)
            return done(std::nullopt, QStringLiteral("the proxy's process is not running (%1)").arg(o.detail));
        if (o.commandLine.isEmpty())
            return done(std::nullopt,
                QStringLiteral("cannot read the command line of the proxy's process (PID %1)").arg(o.pid));
        done(o.commandLine, QString());
    });
}

QString RunnerEngineControl::describe() const
{
    return QStringLiteral("launcher through the node runners (%1)").arg(m_controller->profile().name);
}

} // namespace pd
