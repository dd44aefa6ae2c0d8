// SPDX-License-Identifier: MIT
#include "clustertools.h"

#include "cluster/clusterstore.h"
#include "exec/routingrunner.h"
#include "logs/clusterlogwatch.h"
#include "logs/logsignatures.h"
#include "logspage.h"
#include "mainwindow.h"
#include "nodecheck/checksummary.h"
#include "nodecheck/nodecheckrun.h"
#include "nodecheck/nodecheckrunner.h"
#include "nodechecksgrid.h"
#include "ops/launchspec.h"
#include "ssh/sshrunner.h"
#include "state/statetracker.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"

ClusterTools::ClusterTools(const ConsoleShared &shared, std::shared_ptr<pd::SshRunner> ssh, QObject *parent)
    : QObject(parent)
    , m_store(shared.store)
    , m_window(shared.window)
    , m_tracker(shared.tracker)
    , m_triage(shared.triage)
    , m_runners(std::make_shared<pd::DefaultRunnerFactory>())
    , m_ssh(std::move(ssh))
{
    m_runners->setRemoteRunner(m_ssh);
    m_routing = std::make_unique<pd::RoutingRunner>(m_runners);
    m_checkRunner = std::make_unique<pd::NodeCheckRunner>(m_routing.get());

    m_logs = new pd::LogsPage(m_routing.get());
    m_window->addPage(m_logs, tr("&Logs"));
    // The open log's diagnoses are the proxy's; the engines' come from the background watch, which reads
    // every engine's log (one command per node per interval), open or not.
    connect(m_logs, &pd::LogsPage::diagnosed, this, [this](const pd::LogSource &source, const pd::DiagnosisEvent &event) {
        if (source.engine < 0)
            noteDiagnosis(source, event);
    });
    m_logWatch = std::make_unique<pd::ClusterLogWatch>(m_routing.get());
    connect(m_logWatch.get(), &pd::ClusterLogWatch::diagnosed, this, [this](int engine, const pd::DiagnosisEvent &event) {
        pd::LogSource source;
        source.engine = engine;
        noteDiagnosis(source, event);
    });

    m_grid = new pd::NodeChecksGrid(m_checkRunner.get());
    m_grid->setObjectName(QStringLiteral("nodeChecksPage"));
    m_window->addPage(m_grid, tr("&Node checks"));
    connect(m_grid, &pd::NodeChecksGrid::runFinished, this, &ClusterTools::applyBadges);

    connect(m_store, &pd::ClusterStore::profileChanged, this, &ClusterTools::rebuild);
    rebuild();
}

ClusterTools::~ClusterTools()
{
    m_logWatch.reset(); // its reads run commands through m_routing
    m_checkRunner->cancel();
    delete m_logs; // its log tail runs commands through m_routing
    delete m_grid;
}

void ClusterTools::setNodeToolDir(const QString &dir, const QString &hccnConfPath)
{
    m_toolDir = dir;
    m_hccnConf = hccnConfPath;
    pd::NodeCheckOptions options = m_checkRunner->options();
    options.suite.toolDir = dir;
    if (!hccnConfPath.isEmpty())
        options.suite.hccnConfPath = hccnConfPath;
    m_checkRunner->setOptions(options);
}

void ClusterTools::rebuild()
{
    if (!m_store->hasProfile()) {
        m_logWatch->stop();
        m_logWatch->setLogs({});
        m_logs->setSources({});
        m_grid->setTargets({});
        return;
    }
    const pd::Profile &profile = m_store->profile();
    m_ssh->registerProfile(profile);
    QList<pd::LogSource> sources;
    QString error;
    if (const auto proxy = pd::proxyProcess(profile, {}, &error)) {
        pd::LogSource s;
        s.label = tr("proxy %1:%2").arg(profile.proxy.address).arg(profile.proxy.port);
        s.engineId = QStringLiteral("proxy");
        s.target = pd::proxyTarget(profile);
        s.path = proxy->logFile;
        sources << s;
    }
    const QList<pd::Engine> engines = profile.engines();
    for (int i = 0; i < engines.size(); ++i) {
        const pd::Engine &e = engines.at(i);
        const pd::Node &node = profile.nodes.at(e.nodeIndex);
        pd::LogSource s;
        s.label = QStringLiteral("%1 · %2 (%3, DP %4)").arg(node.name, e.id(), pd::roleName(e.role)).arg(e.dpRank);
        s.engineId = e.id();
        s.engine = i;
        s.target = pd::nodeTarget(node);
        s.path = pd::engineProcess(profile, e).logFile;
        sources << s;
    }
    m_logs->setSources(sources);
    m_grid->setTargets(pd::nodeCheckTargets(profile));
    QList<pd::WatchedLog> watched;
    for (const pd::LogSource &s : std::as_const(sources)) {
        if (s.engine >= 0)
            watched.append({s.engine, s.engineId, s.target, s.path});
    }
    m_logWatch->setLogs(watched);
    m_logWatch->start();
}

void ClusterTools::setEngineLogPath(int engine, const QString &path)
{
    m_logs->setSourcePath(engine, path);
    m_logWatch->setLogPath(engine, path);
}

void ClusterTools::showEngineLog(int engine)
{
    if (m_logs->showEngine(engine))
        m_window->showPage(m_logs);
}

void ClusterTools::showProxyLog()
{
    if (m_logs->showProxy())
        m_window->showPage(m_logs);
    else
        m_window->showNote(tr("The proxy has no log the console can follow (the profile names no proxy script)"));
}

void ClusterTools::runNodeChecks(int node)
{
    if (!m_store->hasProfile())
        return;
    const pd::Profile &profile = m_store->profile();
    QStringList only;
    if (node >= 0 && node < profile.nodes.size())
        only << profile.nodes.at(node).name;
    m_grid->setTargets(pd::nodeCheckTargets(profile, only));
    m_window->showPage(m_grid);
    m_grid->runChecks();
    if (!only.isEmpty())
        m_grid->setTargets(pd::nodeCheckTargets(profile)); // the next "Run" checks every node again
    m_tracker->recordAction(-1, node, only.isEmpty() ? tr("node checks on every node") : tr("node checks"));
}

void ClusterTools::applyBadges(const pd::ClusterReport &report)
{
    const pd::Profile &profile = m_store->profile();
    pd::TopologyView *view = m_window->topologyPanel()->view();
    for (const pd::NodeReport &r : report.nodes) {
        int node = -1;
        for (int i = 0; i < profile.nodes.size(); ++i) {
            if (profile.nodes.at(i).name == r.node)
                node = i;
        }
        if (node < 0)
            continue;
        const pd::NodeCheckSummary summary = pd::summarizeNodeChecks(r);
        m_triage->setNodeChecks(r.node, summary.failures, summary.warnings,
            report.finished.isValid() ? report.finished.toMSecsSinceEpoch() : 0);
        pd::NodeBadges badges;
        QStringList why;
        if (!r.reachable) {
            badges |= pd::NodeBadge::SshDown;
            why << tr("unreachable: %1").arg(r.transportError);
        }
        for (const pd::CheckResult &c : r.checks) {
            if (c.verdict != pd::Verdict::Fail)
                continue;
            const bool npu = c.kind == pd::CheckKind::NpuHealth || c.kind == pd::CheckKind::NpuTable || c.kind == pd::CheckKind::Tools;
            badges |= npu ? pd::NodeBadge::NpuUnhealthy : pd::NodeBadge::NetworkCheckFailed;
            if (why.size() < 6)
                why << (c.device >= 0 ? tr("NPU %1 %2: %3").arg(c.device).arg(pd::checkKindName(c.kind), c.reason)
                                      : tr("%1: %2").arg(pd::checkKindName(c.kind), c.reason));
        }
        view->setNodeBadges(node, badges, why.join(QLatin1Char('\n')));
        if (badges)
            m_tracker->recordAction(-1, node, tr("node checks failed: %1").arg(why.value(0)));
    }
}

void ClusterTools::noteDiagnosis(const pd::LogSource &source, const pd::DiagnosisEvent &event)
{
    const pd::LogSignature *signature = pd::logSignature(event.signatureId);
    const QString title = signature ? signature->title : tr("known error");
    m_tracker->recordDiagnosis(source.engine, -1, title, event.line, event.repeats);
}

pd::LogsPage *ClusterTools::logsPage() const
{
    return m_logs;
}

pd::NodeChecksGrid *ClusterTools::nodeChecks() const
{
    return m_grid;
}
