// SPDX-License-Identifier: MIT
#include "operations.h"

#include "audit/auditlog.h"
#include "cluster/clusterstore.h"
#include "exec/runnerfactory.h"
#include "mainwindow.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/enginecontroller.h"
#include "ops/scalecontext.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/scalerunnercontrol.h"
#include "ops/scalesimcontrol.h"
#include "scale/scalepanel.h"
#include "ssh/guisshprompts.h"
#include "ssh/sshrunner.h"
#include "state/statetracker.h"

#include <QHash>
#include <QVBoxLayout>

Operations::Operations(pd::ClusterStore *store, pd::MainWindow *window, pd::StateTracker *tracker, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_window(window)
    , m_tracker(tracker)
    , m_ssh(std::make_shared<pd::SshRunner>(pd::SshSettings{}, std::make_shared<pd::GuiSshPrompts>(window)))
    , m_audit(std::make_unique<pd::AuditLog>())
{
    connect(m_store, &pd::ClusterStore::profileChanged, this, &Operations::rebuild);
    rebuild();
}

Operations::~Operations()
{
    teardown();
}

void Operations::setSimControl(const QUrl &controlBase)
{
    m_simControl = controlBase;
    rebuild();
}

void Operations::teardown()
{
    if (m_runner)
        m_runner->cancelAll();
    delete m_page; // its tab goes with it
    if (m_membership)
        m_membership->stop();
    m_runner.reset();
    m_context.reset();
    m_probe.reset();
    m_control.reset();
    m_controller.reset();
    m_membership.reset();
    m_proxy.reset();
}

void Operations::rebuild()
{
    teardown();
    if (!m_store->hasProfile())
        return;
    const pd::Profile &profile = m_store->profile();

    m_proxy = std::make_unique<pd::ProxyClient>();
    pd::ProxyEndpoint endpoint;
    endpoint.base.setScheme(QStringLiteral("http"));
    endpoint.base.setHost(profile.proxy.address);
    endpoint.base.setPort(profile.proxy.port);
    if (!profile.proxy.apiKeyEnv.isEmpty())
        endpoint.bearerToken = qgetenv(profile.proxy.apiKeyEnv.toLocal8Bit().constData());
    m_proxy->setEndpoint(endpoint);

    m_membership = std::make_unique<pd::MembershipReconciler>(m_proxy.get());
    m_membership->setListenerTiming(int(profile.proxy.waitingRetryInterval * 1000), profile.proxy.maxWaitingRetries, 5000);
    const QList<pd::EngineRef> refs = pd::engineRefs(profile);
    QList<QPair<QString, pd::Role>> configured;
    QHash<QString, int> indexOf;
    for (int i = 0; i < refs.size(); ++i) {
        configured.append({refs.at(i).id, refs.at(i).role});
        indexOf.insert(refs.at(i).id, i);
    }
    m_membership->setConfigured(configured);
    connect(m_membership.get(), &pd::MembershipReconciler::factChanged, this,
            [this, indexOf](const QString &id, pd::Role, pd::MembershipFact fact) {
                const int engine = indexOf.value(id, -1);
                if (engine >= 0 && engine < m_tracker->engineCount())
                    m_tracker->setMembership(engine, fact);
            });

    auto runners = std::make_shared<pd::DefaultRunnerFactory>();
    m_ssh->registerProfile(profile); // identity files and jump hosts per node
    runners->setRemoteRunner(m_ssh);
    m_controller = std::make_unique<pd::EngineController>(profile, runners);
    connect(m_controller.get(), &pd::EngineController::engineProcessChanged, this,
            [this, indexOf](const QString &id, pd::ProcessFact fact, qint64 pid) {
                const int engine = indexOf.value(id, -1);
                if (engine >= 0 && engine < m_tracker->engineCount())
                    m_tracker->setProcess(engine, fact, pid > 0 ? QStringLiteral("PID %1").arg(pid) : QString());
            });
    if (m_simControl.isValid())
        m_control = std::make_unique<pd::SimClusterEngineControl>(m_simControl);
    else
        m_control = std::make_unique<pd::RunnerEngineControl>(m_controller.get());

    m_probe = std::make_unique<pd::EngineProbe>();
    m_context = std::make_unique<pd::ScaleContext>();
    m_context->proxy = m_proxy.get();
    m_context->membership = m_membership.get();
    m_context->control = m_control.get();
    m_context->probe = m_probe.get();
    m_context->audit = m_audit.get();
    m_runner = std::make_unique<pd::ScaleRunner>(m_context.get());

    auto *page = new QWidget;
    page->setObjectName(QStringLiteral("operationsPage"));
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(new pd::ScalePanel(m_context.get(), m_runner.get(), refs, page));
    m_page = page;
    m_window->addPage(page, tr("&Operations"));
    m_membership->start(2000);
}
