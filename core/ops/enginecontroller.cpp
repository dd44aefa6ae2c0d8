// SPDX-License-Identifier: MIT
#include "ops/enginecontroller.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

namespace pd {

namespace {

// How often a retired job pool is asked whether its last job returned.
constexpr int kRetiredPoolPollMs = 100;

constexpr char kProxyId[] = "proxy";

ProcessOutcome failedOutcome(
    const QString &id, const DetachedProcess &process, ProcessAction action, const QString &error)
{
    ProcessOutcome o;
    o.id = id;
    o.label = process.label;
    o.action = action;
    o.error = error;
    return o;
}

// Runs on a worker thread.
QList<ProcessOutcome> execute(RunnerFactory &runners, ProcessAction action, const QStringList &ids,
    const QList<DetachedProcess> &processes, const ControlTimings &timings)
{
    QList<ProcessOutcome> outcomes;
    if (processes.isEmpty())
        return outcomes;
    QString error;
    const std::shared_ptr<CommandRunner> runner = runners.runner(processes.first().target, &error);
    if (!runner) {
        for (int i = 0; i < processes.size(); ++i)
            outcomes.append(failedOutcome(ids.at(i), processes.at(i), action, error));
        return outcomes;
    }
    switch (action) {
    case ProcessAction::Start:
        outcomes.append(startProcess(*runner, processes.first(), timings));
        break;
    case ProcessAction::Stop:
        outcomes.append(stopProcess(*runner, processes.first(), timings));
        break;
    case ProcessAction::Restart: {
        const ProcessOutcome stopped = stopProcess(*runner, processes.first(), timings);
        if (!stopped.ok) {
            outcomes.append(stopped);
        } else {
            ProcessOutcome started = startProcess(*runner, processes.first(), timings);
            started.detail = stopped.detail + QStringLiteral("; ") + started.detail;
            outcomes.append(started);
        }
        outcomes.last().action = ProcessAction::Restart;
        break;
    }
    case ProcessAction::Status:
        outcomes = processStatus(*runner, processes, timings.commandSlack);
        break;
    }
    for (int i = 0; i < outcomes.size(); ++i)
        outcomes[i].id = ids.at(i);
    return outcomes;
}

QStringList unknownPidFiles(
    RunnerFactory &runners, const DetachedProcess &any, const QStringList &known, const ControlTimings &timings)
{
    QString error;
    const std::shared_ptr<CommandRunner> runner = runners.runner(any.target, &error);
    const qsizetype slash = any.pidFile.lastIndexOf(QLatin1Char('/'));
    const QString directory = slash > 0 ? any.pidFile.left(slash) : QStringLiteral(".");
    const QByteArray command = listPidFilesCommand(any.runDir, directory, &error);
    if (!runner || command.isEmpty())
        return {};
    const CommandResult result = runner->run(any.target, command, timings.commandSlack);
    QStringList notes;
    const QList<QByteArray> lines = result.out.split('\n');
    for (const QByteArray &line : lines) {
        if (!line.startsWith("pd-pidfile "))
            continue;
        const QString path = directory + QLatin1Char('/') + QString::fromUtf8(line.mid(11));
        if (!known.contains(path))
            notes << QStringLiteral("%1 (%2): pid file %3 belongs to no engine of this profile")
                         .arg(any.target.node, any.target.host, path);
        // (jobDone keys on the 4th word, the path: keep it there)
    }
    return notes;
}

} // namespace

EngineController::EngineController(const Profile &profile, std::shared_ptr<RunnerFactory> runners, QObject *parent)
    : QObject(parent)
    , m_profile(profile)
    , m_runners(std::move(runners))
    , m_pool(new QThreadPool)
{
    m_pool->setMaxThreadCount(8);
    m_pool->setExpiryTimeout(30000);
}

namespace {
int g_retiredPools = 0; // GUI thread only
} // namespace

EngineController::~EngineController()
{
    m_pool->clear(); // what has not started never will: its operation is gone with this controller
    if (m_pool->waitForDone(0) || !QCoreApplication::instance()) {
        delete m_pool;
        return;
    }
    // Commands still run (each bounded by its timeout). Their results are dropped (the QPointer in each
    // job), their runners stay alive through the job's own shared_ptr; the pool goes when they return.
    // At exit the application deletes a pool that is left, waiting then, with the window gone.
    QThreadPool *pool = m_pool;
    pool->setParent(QCoreApplication::instance());
    ++g_retiredPools;
    auto *poll = new QTimer(pool);
    poll->setInterval(kRetiredPoolPollMs);
    QObject::connect(poll, &QTimer::timeout, pool, [pool, poll] {
        if (!pool->waitForDone(0))
            return;
        poll->stop();
        --g_retiredPools;
        pool->deleteLater();
    });
    poll->start();
}

int EngineController::retiredPoolsRunning()
{
    return g_retiredPools;
}

void EngineController::setProfile(const Profile &profile)
{
    m_profile = profile;
    m_facts.clear();
}

void EngineController::setMaxParallel(int count)
{
    m_pool->setMaxThreadCount(std::max(1, count));
}

int EngineController::maxParallel() const
{
    return m_pool->maxThreadCount();
}

QList<Engine> EngineController::enginesOfNode(const QString &nodeName) const
{
    QList<Engine> result;
    const QList<Engine> all = m_profile.engines();
    for (const Engine &e : all) {
        if (m_profile.nodes.at(e.nodeIndex).name == nodeName)
            result.append(e);
    }
    return result;
}

QList<Engine> EngineController::enginesById(const QStringList &ids, QStringList *unknown) const
{
    QList<Engine> result;
    const QList<Engine> all = m_profile.engines();
    for (const QString &id : ids) {
        bool found = false;
        for (const Engine &e : all) {
            const QString byNode = m_profile.nodes.at(e.nodeIndex).name + QLatin1Char(':') + QString::number(e.port);
            if (e.id() == id || byNode == id) {
                result.append(e);
                found = true;
                break;
            }
        }
        if (!found && unknown)
            unknown->append(id);
    }
    return result;
}

int EngineController::startEngines(const QList<Engine> &engines)
{
    return launchEngines(ProcessAction::Start, engines);
}

int EngineController::stopEngines(const QList<Engine> &engines)
{
    return launchEngines(ProcessAction::Stop, engines);
}

int EngineController::restartEngines(const QList<Engine> &engines)
{
    return launchEngines(ProcessAction::Restart, engines);
}

int EngineController::refreshEngines(const QList<Engine> &engines)
{
    return launchStatus(engines, false);
}

int EngineController::rediscover()
{
    return launchStatus(m_profile.engines(), true);
}

int EngineController::launchEngines(ProcessAction action, const QList<Engine> &engines)
{
    QList<Job> jobs;
    for (const Engine &engine : engines) {
        Job job;
        job.ids << engine.id();
        job.processes << engineProcess(m_profile, engine);
        jobs.append(job);
    }
    return launch(action, jobs);
}

int EngineController::launchStatus(const QList<Engine> &engines, bool listPidFiles)
{
    QStringList known;
    if (listPidFiles) {
        const QList<Engine> all = m_profile.engines();
        for (const Engine &e : all)
            known << engineProcess(m_profile, e).pidFile;
    }
    // One job per node: a 16-engine node answers with one command.
    QList<Job> jobs;
    QHash<int, int> jobOfNode;
    for (const Engine &engine : engines) {
        if (!jobOfNode.contains(engine.nodeIndex)) {
            jobOfNode.insert(engine.nodeIndex, int(jobs.size()));
            Job job;
            job.listPidFiles = listPidFiles;
            job.knownPidFiles = known;
            jobs.append(job);
        }
        Job &job = jobs[jobOfNode.value(engine.nodeIndex)];
        job.ids << engine.id();
        job.processes << engineProcess(m_profile, engine);
    }
    return launch(ProcessAction::Status, jobs);
}

int EngineController::startProxy()
{
    return proxyOperation(ProcessAction::Start, m_profile);
}

int EngineController::startProxyWith(const ProxyLists &lists)
{
    Profile withLists = m_profile;
    withLists.proxy.prefillInstances = lists.prefill;
    withLists.proxy.decodeInstances = lists.decode;
    return proxyOperation(ProcessAction::Start, withLists);
}

int EngineController::stopProxy()
{
    return proxyOperation(ProcessAction::Stop, m_profile);
}

int EngineController::refreshProxy()
{
    return proxyOperation(ProcessAction::Status, m_profile);
}

int EngineController::proxyOperation(ProcessAction action, const Profile &profile)
{
    QString error;
    const std::optional<DetachedProcess> process = proxyProcess(profile, m_proxyOptions, &error);
    if (!process) {
        ProcessOutcome o;
        o.id = QLatin1String(kProxyId);
        o.label = QStringLiteral("proxy");
        o.action = action;
        o.error = error;
        return finishImmediately(action, { o });
    }
    Job job;
    job.ids << QLatin1String(kProxyId);
    job.processes << *process;
    return launch(action, { job });
}

int EngineController::finishImmediately(ProcessAction action, const QList<ProcessOutcome> &outcomes)
{
    const int id = m_nextId++;
    Operation operation;
    operation.summary.id = id;
    operation.summary.action = action;
    operation.total = int(outcomes.size());
    m_operations.insert(id, operation);
    QMetaObject::invokeMethod(
        this, [this, id, outcomes] { jobDone(id, outcomes, {}); }, Qt::QueuedConnection);
    return id;
}

int EngineController::launch(ProcessAction action, const QList<Job> &jobs)
{
    const int id = m_nextId++;
    Operation operation;
    operation.summary.id = id;
    operation.summary.action = action;
    for (const Job &job : jobs) {
        for (int i = 0; i < job.ids.size(); ++i) {
            ProcessOutcome placeholder;
            placeholder.id = job.ids.at(i);
            placeholder.label = job.processes.at(i).label;
            placeholder.action = action;
            placeholder.error = QStringLiteral("%1: no answer").arg(placeholder.label);
            operation.slot.insert(placeholder.id, int(operation.summary.outcomes.size()));
            operation.summary.outcomes.append(placeholder);
        }
    }
    operation.total = int(operation.summary.outcomes.size());
    m_operations.insert(id, operation);
    if (jobs.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [this, id] { jobDone(id, {}, {}); }, Qt::QueuedConnection);
        return id;
    }
    Q_EMIT progress(id, 0, operation.total);
    const QPointer<EngineController> self(this);
    for (const Job &job : jobs) {
        std::shared_ptr<RunnerFactory> runners = m_runners;
        const ControlTimings timings = m_timings;
        m_pool->start([self, id, action, job, runners, timings] {
            const QList<ProcessOutcome> outcomes = execute(*runners, action, job.ids, job.processes, timings);
            QStringList notes;
            if (job.listPidFiles && !job.processes.isEmpty())
                notes = unknownPidFiles(*runners, job.processes.first(), job.knownPidFiles, timings);
            if (self) {
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, id, outcomes, notes] {
                        if (self)
                            self->jobDone(id, outcomes, notes);
                    },
                    Qt::QueuedConnection);
            }
        });
    }
    return id;
}

void EngineController::jobDone(int operationId, const QList<ProcessOutcome> &outcomes, const QStringList &notes)
{
    auto it = m_operations.find(operationId);
    if (it == m_operations.end())
        return;
    Operation &operation = it.value();
    for (const ProcessOutcome &outcome : outcomes) {
        const int slot = operation.slot.value(outcome.id, -1);
        if (slot >= 0)
            operation.summary.outcomes[slot] = outcome;
        else
            operation.summary.outcomes.append(outcome);
        ++operation.done;
        record(outcome);
        Q_EMIT processFinished(operationId, outcome);
    }
    for (const QString &note : notes) {
        // Nodes sharing one machine (the loopback demo) list the same files: one note per file.
        const QString path = note.section(QLatin1Char(' '), 3, 3);
        bool seen = false;
        for (const QString &existing : std::as_const(operation.summary.notes))
            seen = seen || existing.section(QLatin1Char(' '), 3, 3) == path;
        if (!seen)
            operation.summary.notes.append(note);
    }
    Q_EMIT progress(operationId, operation.done, operation.total);
    if (operation.done < operation.total)
        return;
    const OperationSummary summary = operation.summary;
    m_operations.erase(it);
    Q_EMIT operationFinished(summary);
}

void EngineController::record(const ProcessOutcome &outcome)
{
    if (outcome.process == ProcessFact::Unknown)
        return;
    const qint64 pid = outcome.process == ProcessFact::Running ? outcome.pid : 0;
    const QPair<ProcessFact, qint64> fact { outcome.process, pid };
    if (m_facts.value(outcome.id) == fact && m_facts.contains(outcome.id))
        return;
    m_facts.insert(outcome.id, fact);
    if (outcome.id != QLatin1String(kProxyId)) // the proxy has no tracker fact; processFact("proxy") answers
        Q_EMIT engineProcessChanged(outcome.id, outcome.process, pid);
}

ProcessFact EngineController::processFact(const QString &engineId) const
{
    return m_facts.value(engineId, { ProcessFact::Unknown, 0 }).first;
}

qint64 EngineController::pid(const QString &engineId) const
{
    return m_facts.value(engineId, { ProcessFact::Unknown, 0 }).second;
}

} // namespace pd
