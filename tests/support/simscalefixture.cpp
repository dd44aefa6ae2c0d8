// SPDX-License-Identifier: MIT
#include "simscalefixture.h"

#include "../scale/scaletesthelpers.h"
#include "audit/auditlog.h"
#include "awaitreply.h"
#include "blockinghttp.h"
#include "cluster/instancekey.h"
#include "cluster/profileformat.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/engineactions.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"

using json = nlohmann::json;

namespace pd::test {

SimScaleFixture::SimScaleFixture() = default;

SimScaleFixture::~SimScaleFixture() = default;

bool SimScaleFixture::loadProfile(const QString &path)
{
    const ProfileLoadResult loaded = loadProfileFile(path);
    if (!loaded.profile)
        return false;
    m_profile = *loaded.profile;
    m_refs = engineRefs(m_profile);
    return true;
}

EngineRef SimScaleFixture::ref(const QString &id) const
{
    for (const EngineRef &e : m_refs)
        if (e.id == id)
            return e;
    qFatal("no engine %s in the test profile", qPrintable(id));
}

QString SimScaleFixture::startCluster(sim::ClusterOptions options)
{
    options.profile = m_profile;
    m_cluster = std::make_unique<sim::SimCluster>(options);
    QObject::connect(m_cluster.get(), &sim::SimCluster::message, m_cluster.get(), [this](const QString &line) {
        if (line.contains(QLatin1String("KeyError")) || line.contains(QLatin1String("Exception in thread")))
            m_crashLines << line;
    });
    QString error;
    if (!m_cluster->start(&error))
        return error.isEmpty() ? QStringLiteral("the simulated cluster did not start") : error;
    return {};
}

void SimScaleFixture::stopCluster()
{
    m_cluster.reset();
}

QByteArray SimScaleFixture::callControl(
    const QByteArray &method, const QString &path, const QByteArray &body, int *status)
{
    const QString base = QStringLiteral("http://%1:%2").arg(m_profile.proxy.address).arg(m_cluster->controlPort());
    return blockingHttp(method, base + path, body, status);
}

int SimScaleFixture::postControl(const QString &path, const QByteArray &body)
{
    int status = 0;
    callControl("POST", path, body, &status);
    return status;
}

json SimScaleFixture::clusterState()
{
    return json::parse(callControl("GET", QStringLiteral("/cluster")).toStdString(), nullptr, false);
}

json SimScaleFixture::engineState(const QString &id)
{
    const json state = clusterState();
    if (state.is_object() && state.contains("engines"))
        for (const json &e : state["engines"])
            if (e.value("id", std::string()) == id.toStdString())
                return e;
    return {};
}

QString SimScaleFixture::engineStatus(const QString &id)
{
    const json e = engineState(id);
    return e.is_object() ? QString::fromStdString(e.value("status", std::string())) : QString();
}

QString SimScaleFixture::engineFault(const QString &id)
{
    const json e = engineState(id);
    return e.is_object() ? QString::fromStdString(e.value("fault", std::string())) : QString();
}

void SimScaleFixture::stopEngineNow(const QString &id)
{
    QCOMPARE(
        postControl(QStringLiteral("/cluster/engines/stop"), QByteArray(R"({"engines":[")") + id.toUtf8() + "\"]}"),
        200);
    QTRY_COMPARE_WITH_TIMEOUT(engineStatus(id), QStringLiteral("stopped"), 10000);
}

bool SimScaleFixture::setFault(const QString &id, const QString &kind)
{
    const QByteArray body = QStringLiteral(R"({"engines":["%1"],"kind":"%2"})").arg(id, kind).toUtf8();
    return postControl(QStringLiteral("/cluster/engines/fault"), body) == 200
        && QTest::qWaitFor([&] { return engineFault(id) == kind; }, 10000);
}

void SimScaleFixture::setLoad(double rps)
{
    QCOMPARE(
        postControl(QStringLiteral("/cluster/load"), QByteArray("{\"rps\":") + QByteArray::number(rps) + "}"), 200);
}

void SimScaleFixture::setUpScaling(int proxyTimeoutMs, ListenerTiming timing)
{
    m_proxy = std::make_unique<ProxyClient>();
    m_proxy->setEndpoint({ QUrl(QStringLiteral("http://%1:%2").arg(m_profile.proxy.address).arg(m_profile.proxy.port)),
        {}, {}, proxyTimeoutMs });
    m_table.reset(newTable());
    if (timing == ListenerTiming::Fixed)
        m_table->setListenerTiming(500, m_profile.proxy.maxWaitingRetries, 2000);
    m_control = std::make_unique<SimClusterEngineControl>(
        QUrl(QStringLiteral("http://%1:%2").arg(m_profile.proxy.address).arg(m_cluster->controlPort())));
    m_probe = std::make_unique<EngineProbe>();
    m_audit = std::make_unique<AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
    wire(m_ctx, m_table.get());
    m_ctx.probe = m_probe.get();
    m_runner = std::make_unique<ScaleRunner>(&m_ctx);
    m_actions = std::make_unique<EngineActions>(&m_ctx, m_runner.get());
}

MembershipReconciler *SimScaleFixture::newTable(QObject *parent) const
{
    auto *table = new MembershipReconciler(m_proxy.get(), parent);
    QList<QPair<QString, Role>> configured;
    for (const EngineRef &e : m_refs)
        configured.append({ e.id, e.role });
    table->setConfigured(configured);
    return table;
}

void SimScaleFixture::wire(ScaleContext &ctx, MembershipReconciler *table) const
{
    ctx.proxy = m_proxy.get();
    ctx.membership = table;
    ctx.control = m_control.get();
    ctx.audit = m_audit.get();
}

bool SimScaleFixture::reconcile()
{
    return reconcileNow(m_table.get());
}

bool SimScaleFixture::waitIdle(int ms)
{
    return test::waitIdle(m_runner.get(), ms);
}

QSet<QString> SimScaleFixture::listed(Role role) const
{
    QSet<QString> out;
    if (m_table->lists())
        for (const QString &id : m_table->lists()->of(role))
            out.insert(proxyInstanceKey(id));
    return out;
}

QList<EngineRef> SimScaleFixture::activeMembers(Role role) const
{
    QList<EngineRef> members;
    for (const EngineRef &e : m_refs)
        if (e.role == role && m_table->fact(e.id, role) == MembershipFact::Active)
            members << e;
    return members;
}

QHash<QString, EngineLoad> SimScaleFixture::loads(Role role)
{
    const QList<EngineRef> members = activeMembers(role);
    return awaitReply<QHash<QString, EngineLoad>>([&](auto done) {
        m_probe->loads(members, done);
    }).value_or(QHash<QString, EngineLoad>());
}

} // namespace pd::test
