// SPDX-License-Identifier: MIT
#include "clustersim/simcluster.h"

#include "clustersim/dpgroupcoordinator.h"
#include "clustersim/epolleventdispatcher.h"
#include "clustersim/loadgenerator.h"
#include "engine/dpsteppace.h"
#include "ops/launchspec.h"
#include "proxy/simproxy.h"
#include "simlog/logfile.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QMetaObject>

#include <functional>

namespace pd::sim {

using json = nlohmann::json;

namespace {

QString statusName(SimEngine::Status status)
{
    switch (status) {
    case SimEngine::Status::Stopped: return QStringLiteral("stopped");
    case SimEngine::Status::Starting: return QStringLiteral("starting");
    case SimEngine::Status::Ready: return QStringLiteral("ready");
    case SimEngine::Status::Draining: return QStringLiteral("draining");
    case SimEngine::Status::Crashed: return QStringLiteral("crashed");
    }
    return QStringLiteral("unknown");
}

BackendAddress backend(const QString &hostPort)
{
    const qsizetype colon = hostPort.lastIndexOf(QLatin1Char(':'));
    return {hostPort.left(colon), hostPort.mid(colon + 1).toInt()};
}

// The profile as the console would launch it with run_dir = dir: the log paths of launchspec.
pd::Profile withRunDir(const pd::Profile &profile, const QString &dir)
{
    pd::Profile p = profile;
    p.runDir = QDir(dir).absolutePath();
    return p;
}

void reply(const HttpResponderPtr &responder, int status, const json &body)
{
    responder->respond(status, "application/json", QByteArray::fromStdString(body.dump()));
}

} // namespace

SimCluster::SimCluster(ClusterOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_addresses(m_options.profile, m_options.loopback)
{
    m_control.setHandler([this](const HttpRequest &r, const HttpResponderPtr &p) { handleControl(r, p); });
}

SimCluster::~SimCluster()
{
    shutdown();
}

bool SimCluster::openLogs(QString *error)
{
    if (m_options.logDir.isEmpty())
        return true;
    if (!QDir().mkpath(m_options.logDir)) {
        *error = QStringLiteral("--log-dir %1: cannot create the directory").arg(m_options.logDir);
        return false;
    }
    const pd::Profile logProfile = withRunDir(m_options.profile, m_options.logDir);
    QString why;
    const auto proxy = pd::proxyProcess(logProfile, {}, &why);
    // A profile the console could not start a proxy from still has a proxy here: the launcher's name.
    const QString path = proxy ? proxy->logFile
                               : QDir(logProfile.runDir).filePath(QStringLiteral("proxy/proxy-%1.log").arg(logProfile.proxy.port));
    m_proxyLog = std::make_unique<LogFile>(path);
    if (!m_proxyLog->open(&why)) {
        *error = QStringLiteral("--log-dir: %1").arg(why);
        m_proxyLog.reset();
        return false;
    }
    return true;
}

namespace {

// What the group coordinator does to a rank, queued to the thread of the shard that runs it (shards are
// looked up when called: they start after the coordinator).
DpGroupCoordinator::RankActions rankActions(const std::function<EngineShard *(int)> &shardOf)
{
    DpGroupCoordinator::RankActions actions;
    actions.startGated = [shardOf](int index, quint64 serial) {
        EngineShard *shard = shardOf(index);
        QMetaObject::invokeMethod(shard, [shard, index, serial] { shard->startGated(index, serial); }, Qt::QueuedConnection);
    };
    actions.stop = [shardOf](int index) {
        EngineShard *shard = shardOf(index);
        QMetaObject::invokeMethod(shard, [shard, index] { shard->stop(index); }, Qt::QueuedConnection);
    };
    actions.formed = [shardOf](int index) {
        EngineShard *shard = shardOf(index);
        QMetaObject::invokeMethod(shard, [shard, index] { shard->groupFormed(index); }, Qt::QueuedConnection);
    };
    actions.block = [shardOf](int index, bool blocked) {
        EngineShard *shard = shardOf(index);
        QMetaObject::invokeMethod(shard, [shard, index, blocked] { shard->setGroupBlocked(index, blocked); }, Qt::QueuedConnection);
    };
    actions.exitJoinTimeout = [shardOf](int index, int seconds, int joined, int size, const QString &master) {
        EngineShard *shard = shardOf(index);
        QMetaObject::invokeMethod(shard, [=] { shard->exitJoinTimeout(index, seconds, joined, size, master); },
            Qt::QueuedConnection);
    };
    actions.exitWatchdog = [shardOf](int index, int seconds, int deadRank) {
        EngineShard *shard = shardOf(index);
        QMetaObject::invokeMethod(shard, [=] { shard->exitWatchdog(index, seconds, deadRank); }, Qt::QueuedConnection);
    };
    return actions;
}

} // namespace

bool SimCluster::start(QString *error)
{
    if (!openLogs(error))
        return false;
    const pd::Profile &profile = m_options.profile;
    const pd::Profile logProfile = withRunDir(profile, m_options.logDir);
    const QList<pd::Engine> engines = profile.engines();
    pd::Profile groupProfile = profile;
    if (!m_options.dpCoupling) {
        groupProfile.prefill.dpCoupling = pd::DpCoupling::Independent;
        groupProfile.decode.dpCoupling = pd::DpCoupling::Independent;
    }
    m_groups = pd::DpGroups(groupProfile);
    // A coupled group's ranks share one step pace; the watchdog is the role's HCCL_EXEC_TIMEOUT.
    QHash<int, std::pair<std::shared_ptr<DpStepPace>, int>> paceOf;
    QList<DpGroupCoordinator::Timing> timing;
    for (const pd::DpGroup &g : m_groups.groups()) {
        DpGroupCoordinator::Timing t;
        t.joinTimeoutSeconds = m_options.dpJoinTimeoutSeconds;
        t.watchdogTimeoutSeconds = 1800;
        for (const auto &[name, value] : profile.roleConfig(g.role).env) {
            if (name == QLatin1String("HCCL_EXEC_TIMEOUT") && value.toInt() > 0)
                t.watchdogTimeoutSeconds = value.toInt();
        }
        if (m_options.dpWatchdogTimeoutSeconds)
            t.watchdogTimeoutSeconds = *m_options.dpWatchdogTimeoutSeconds;
        timing.append(t);
        if (!g.coupled)
            continue;
        auto pace = std::make_shared<DpStepPace>(g.size());
        for (qsizetype slot = 0; slot < g.engines.size(); ++slot)
            paceOf.insert(g.engines.at(slot), {pace, int(slot)});
    }
    const int shardCount = m_options.threads > 0 ? m_options.threads
                                                 : std::clamp(int((engines.size() + 63) / 64), 1, 16);
    QList<QList<EngineOptions>> shardOptions(shardCount);
    QList<QList<int>> shardIndexes(shardCount);
    for (qsizetype i = 0; i < engines.size(); ++i) {
        const pd::Engine &e = engines.at(i);
        const pd::Node &node = profile.nodes.at(e.nodeIndex);
        const pd::RoleConfig &role = profile.roleConfig(e.role);
        EngineOptions o;
        o.role = e.role == pd::Role::Prefill ? EngineRole::Prefill : EngineRole::Decode;
        o.model = role.servedModelName.isEmpty() ? QStringLiteral("deepseek_r1") : role.servedModelName;
        o.modelPath = role.modelPath;
        o.dpRank = e.dpRank;
        o.host = QHostAddress(m_addresses.nodeHost(e.nodeIndex));
        o.port = quint16(e.port);
        o.maxNumSeqs = role.maxNumSeqs;
        o.maxNumBatchedTokens = role.maxNumBatchedTokens;
        o.maxModelLen = role.maxModelLen;
        o.flavor = m_options.flavor;
        o.startupSeconds = m_options.startupSeconds;
        o.timeScale = m_options.timeScale;
        o.timing.jitter = m_options.jitter;
        o.seed = m_options.seed * 1000003u + quint64(i) + 1;
        if (const int kv = role.kvPort(); kv > 0)
            o.kvPort = quint16(kv);
        if (!m_options.logDir.isEmpty())
            o.logPath = pd::engineProcess(logProfile, e).logFile;
        for (const auto &[name, value] : role.env) {
            if (name == QLatin1String("HCCL_EXEC_TIMEOUT") && value.toInt() > 0)
                o.hcclExecTimeoutSeconds = value.toInt();
        }
        if (const auto pace = paceOf.constFind(int(i)); pace != paceOf.cend()) {
            o.stepPace = pace->first;
            o.stepPaceSlot = pace->second;
        }
        const int shard = int(i % shardCount);
        shardOptions[shard].append(o);
        shardIndexes[shard].append(int(i));
        m_engines.append({QStringLiteral("%1:%2").arg(m_addresses.nodeHost(e.nodeIndex)).arg(e.port), e.id(), node.name,
                          o.role, e.dpRank, shard});
    }
    m_isReady = QList<bool>(engines.size(), false);
    DpGroupCoordinator::RankActions actions = rankActions([this](int index) { return m_shards.at(m_engines.at(index).shard); });
    m_coordinator = new DpGroupCoordinator(m_groups, timing, m_options.timeScale, std::move(actions), this);
    connect(m_coordinator, &DpGroupCoordinator::groupChanged, this, [this](const QString &id, const QString &state) {
        Q_EMIT message(QStringLiteral("DP group %1: %2").arg(id, state));
    });

    if (!startProxy(error))
        return false;
    if (!m_control.listen(QHostAddress(m_addresses.proxyHost()), m_options.controlPort)) {
        *error = QStringLiteral("control API: cannot listen on %1:%2: %3")
                     .arg(m_addresses.proxyHost()).arg(m_options.controlPort).arg(m_control.errorString());
        return false;
    }

    for (int s = 0; s < shardCount; ++s) {
        auto *thread = new QThread(this);
        thread->setObjectName(QStringLiteral("engines-%1").arg(s));
        thread->setEventDispatcher(new EpollEventDispatcher); // answers cost what is ready, not every socket
        auto *shard = new EngineShard(shardOptions.at(s), shardIndexes.at(s));
        shard->moveToThread(thread);
        connect(thread, &QThread::finished, shard, &QObject::deleteLater);
        connect(shard, &EngineShard::engineReady, this, [this](int index) {
            if (!m_isReady.at(index)) {
                m_isReady[index] = true;
                ++m_ready;
            }
            checkReady();
        });
        connect(shard, &EngineShard::engineStopped, this, [this](int index) {
            if (m_isReady.at(index)) {
                m_isReady[index] = false;
                --m_ready;
            }
        });
        connect(shard, &EngineShard::engineFailed, this, [this](int index, const QString &reason) {
            Q_EMIT message(QStringLiteral("engine %1: %2").arg(m_engines.at(index).listenId, reason));
        });
        connect(shard, &EngineShard::engineExited, this, [this](int index, quint64 serial) {
            if (m_coordinator)
                m_coordinator->rankExited(index, serial);
        });
        thread->start();
        m_threads.append(thread);
        m_shards.append(shard);
    }
    // Every engine starts at once, as the console's launcher starts every node: each coupled group forms.
    for (int i = 0; i < m_engines.size(); ++i)
        startEngine(i);

    if (m_options.loadRps > 0) {
        const pd::RoleConfig &decode = profile.decode;
        m_load = new LoadGenerator(QHostAddress(m_addresses.proxyHost()), quint16(profile.proxy.port),
                                   decode.servedModelName.isEmpty() ? QStringLiteral("deepseek_r1") : decode.servedModelName,
                                   std::min(profile.prefill.maxModelLen, decode.maxModelLen), m_options.seed, this);
        m_load->setMaxInFlight(m_options.loadMaxInFlight);
    }
    checkReady();
    return true;
}

bool SimCluster::startProxy(QString *error, const std::optional<QPair<QStringList, QStringList>> &lists)
{
    const pd::Profile &profile = m_options.profile;
    ProxyOptions p;
    p.host = m_addresses.proxyHost();
    p.port = profile.proxy.port;
    for (const QString &id : lists ? lists->first : profile.proxyInstances(pd::Role::Prefill))
        p.prefillers.append(backend(m_addresses.mapInstance(id)));
    for (const QString &id : lists ? lists->second : profile.proxyInstances(pd::Role::Decode))
        p.decoders.append(backend(m_addresses.mapInstance(id)));
    p.maxRetries = profile.proxy.maxRetries;
    p.retryDelay = profile.proxy.retryDelay;
    p.maxWaitingRetries = profile.proxy.maxWaitingRetries;
    p.waitingRetryInterval = m_options.waitingRetryInterval.value_or(profile.proxy.waitingRetryInterval);
    p.workers = profile.proxy.workers;
    p.generation = profile.proxy.generation == pd::ProxyGeneration::V091Dev ? ProxyGeneration::V091Dev
                                                                           : ProxyGeneration::Main;
    p.accessLog = m_proxyLog != nullptr;
    m_proxyOptions = p;
    m_proxy = std::make_unique<SimProxy>(p);
    ++m_proxyStarts;
    if (m_proxyLog)
        m_proxyLog->rotate(); // a new proxy process, a new log (the previous one kept as .1)
    connect(m_proxy.get(), &SimProxy::output, this, [this](ProxyStream, const QString &line) {
        if (m_proxyLog)
            m_proxyLog->append(line.toUtf8());
        Q_EMIT message(QStringLiteral("proxy: ") + line);
    });
    connect(m_proxy.get(), &SimProxy::accessLine, this, [this](const QString &line) {
        if (m_proxyLog)
            m_proxyLog->append(line.toUtf8());
    });
    QString why;
    if (!m_proxy->listen(&why)) {
        *error = QStringLiteral("proxy: %1").arg(why);
        if (m_proxyLog)
            m_proxyLog->append(QStringLiteral("ERROR:    [Errno 98] error while attempting to bind on address (%1, %2): %3")
                                   .arg(p.host).arg(p.port).arg(why).toUtf8());
        m_proxy.reset();
        return false;
    }
    if (m_proxyLog) {
        for (const QString &line : m_proxy->startupLines())
            m_proxyLog->append(line.toUtf8());
    }
    return true;
}

void SimCluster::stopProxy()
{
    if (!m_proxy)
        return;
    m_proxy->close();
    if (m_proxyLog) {
        for (const QString &line : m_proxy->shutdownLines())
            m_proxyLog->append(line.toUtf8());
        m_proxyLog->flush();
    }
    m_proxy.reset();
}

void SimCluster::checkReady()
{
    if (m_announced || m_ready < m_engines.size() || !m_proxy)
        return;
    m_announced = true;
    if (m_load)
        m_load->setRate(m_options.loadRps);
    Q_EMIT ready(proxyAddress(), int(m_engines.size()));
}

void SimCluster::shutdown()
{
    if (m_load)
        m_load->setRate(0);
    m_control.close();
    delete m_coordinator; // its timers must not reach the shards once they are gone
    m_coordinator = nullptr;
    stopProxy();
    for (QThread *thread : std::as_const(m_threads)) {
        thread->quit();
        thread->wait();
    }
    qDeleteAll(m_threads);
    m_threads.clear();
    m_shards.clear(); // deleted in their threads on finished
}

void SimCluster::startEngine(int index)
{
    if (m_coordinator && m_coordinator->manages(index)) {
        m_coordinator->start(index);
        return;
    }
    EngineShard *shard = m_shards.at(m_engines.at(index).shard);
    QMetaObject::invokeMethod(shard, [shard, index] { shard->start(index); }, Qt::QueuedConnection);
}

void SimCluster::stopEngine(int index)
{
    if (m_coordinator && m_coordinator->manages(index)) {
        m_coordinator->stop(index);
        return;
    }
    EngineShard *shard = m_shards.at(m_engines.at(index).shard);
    QMetaObject::invokeMethod(shard, [shard, index] { shard->stop(index); }, Qt::QueuedConnection);
}

QString SimCluster::proxyAddress() const
{
    return QStringLiteral("%1:%2").arg(m_addresses.proxyHost()).arg(m_options.profile.proxy.port);
}

quint16 SimCluster::controlPort() const
{
    return m_control.port();
}

QList<EngineSnapshot> SimCluster::snapshot() const
{
    QList<EngineSnapshot> all;
    for (EngineShard *shard : m_shards) {
        QList<EngineSnapshot> part;
        QMetaObject::invokeMethod(shard, [shard, &part] { part = shard->snapshot(); }, Qt::BlockingQueuedConnection);
        all.append(part);
    }
    std::sort(all.begin(), all.end(), [](const EngineSnapshot &a, const EngineSnapshot &b) { return a.index < b.index; });
    return all;
}

std::string SimCluster::groupId(int index) const
{
    const int gi = m_coordinator ? m_coordinator->groupOf(index) : -1;
    return gi >= 0 ? m_groups.groups().at(gi).id.toStdString() : std::string();
}

std::string SimCluster::rankState(int index) const
{
    if (!m_coordinator || m_coordinator->groupOf(index) < 0)
        return {};
    if (!m_coordinator->manages(index))
        return "independent";
    return DpGroupCoordinator::rankStateName(m_coordinator->rankState(index)).toStdString();
}

json SimCluster::proxyArgumentsJson() const
{
    if (!m_proxy)
        return nullptr;
    json words = json::array();
    words.push_back("load_balance_proxy_server_example.py");
    for (const QString &w : m_proxyOptions.toArguments())
        words.push_back(w.toStdString());
    return words;
}

QByteArray SimCluster::stateJson() const
{
    json engines = json::array();
    const QList<EngineSnapshot> snaps = snapshot();
    for (const EngineSnapshot &s : snaps) {
        const ClusterEngine &e = m_engines.at(s.index);
        engines.push_back({{"id", e.listenId.toStdString()},
                           {"profile_id", e.profileId.toStdString()},
                           {"node", e.node.toStdString()},
                           {"role", engineRoleName(e.role).toStdString()},
                           {"dp_rank", e.dpRank},
                           {"status", statusName(s.status).toStdString()},
                           {"fault", faultKindName(s.state.fault).toStdString()},
                           {"group", groupId(s.index)},
                           {"group_state", rankState(s.index)},
                           {"awaiting_group", s.state.awaitingGroup},
                           {"group_blocked", s.state.groupBlocked},
                           {"running", s.state.running},
                           {"waiting", s.state.waiting},
                           {"finished", s.state.finished},
                           {"generation_tokens", s.state.generationTokens}});
    }
    json groups = json::array();
    if (m_coordinator) {
        for (const DpGroupCoordinator::GroupView &g : m_coordinator->groups()) {
            json ranks = json::array();
            json dead = json::array();
            json frozen = json::array();
            json joining = json::array();
            for (qsizetype i = 0; i < g.group->engines.size(); ++i) {
                const std::string id = m_engines.at(g.group->engines.at(i)).listenId.toStdString();
                ranks.push_back(id);
                if (!g.group->coupled)
                    continue;
                switch (g.ranks.at(i)) {
                case DpGroupCoordinator::RankState::Down: dead.push_back(id); break;
                case DpGroupCoordinator::RankState::Frozen: frozen.push_back(id); break;
                case DpGroupCoordinator::RankState::Joining: joining.push_back(id); break;
                case DpGroupCoordinator::RankState::Member: break;
                }
            }
            json j{{"id", g.group->id.toStdString()},
                   {"role", g.group->role == pd::Role::Prefill ? "prefill" : "decode"},
                   {"coupled", g.group->coupled},
                   {"state", DpGroupCoordinator::groupStateName(g.state).toStdString()},
                   {"ranks", ranks},
                   {"dead_ranks", dead},
                   {"frozen_ranks", frozen},
                   {"joining_ranks", joining},
                   {"since", g.sinceMs}};
            if (!g.lastExit.isEmpty())
                j["last_exit"] = g.lastExit.toStdString();
            groups.push_back(std::move(j));
        }
    }
    json root { { "proxy", proxyAddress().toStdString() }, { "proxy_running", m_proxy != nullptr },
        { "proxy_starts", m_proxyStarts }, // a restart (by anyone) counts one more
        { "proxy_arguments", proxyArgumentsJson() }, { "ready", m_announced }, { "engines", engines },
        { "groups", groups } };
    if (m_load) {
        const LoadStats &l = m_load->stats();
        root["load"] = { { "rps", m_load->rate() }, { "streams", m_load->streams() }, { "sent", l.sent },
            { "succeeded", l.succeeded }, { "failed", l.failed }, { "empty_ok", l.emptyOk }, { "skipped", l.skipped },
            { "in_flight", l.inFlight } };
    }
    return QByteArray::fromStdString(root.dump());
}

QList<int> SimCluster::select(const QByteArray &body, QString *error) const
{
    const json j = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!j.is_object()) {
        *error = QStringLiteral("expected a JSON object");
        return {};
    }
    QList<int> indexes;
    if (j.value("all", false)) {
        for (int i = 0; i < m_engines.size(); ++i)
            indexes.append(i);
        return indexes;
    }
    if (j.contains("group") && j["group"].is_string()) {
        const pd::DpGroup *g = m_groups.find(QString::fromStdString(j["group"].get<std::string>()));
        if (!g) {
            *error = QStringLiteral("no DP group \"%1\"").arg(QString::fromStdString(j["group"].get<std::string>()));
            return {};
        }
        return g->engines;
    }
    if (j.contains("node") && j["node"].is_string()) {
        const QString node = QString::fromStdString(j["node"].get<std::string>());
        for (int i = 0; i < m_engines.size(); ++i)
            if (m_engines.at(i).node == node)
                indexes.append(i);
        if (indexes.isEmpty())
            *error = QStringLiteral("no node \"%1\"").arg(node);
        return indexes;
    }
    if (!j.contains("engines") || !j["engines"].is_array()) {
        *error = QStringLiteral("give \"engines\": [\"host:port\", ...], \"node\": NAME, \"group\": ID or \"all\": true");
        return {};
    }
    for (const json &item : j["engines"]) {
        const QString id = item.is_string() ? QString::fromStdString(item.get<std::string>()) : QString();
        int found = -1;
        for (int i = 0; i < m_engines.size(); ++i)
            if (m_engines.at(i).listenId == id || m_engines.at(i).profileId == id)
                found = i;
        if (found < 0) {
            *error = QStringLiteral("no engine \"%1\"").arg(id);
            return {};
        }
        indexes.append(found);
    }
    return indexes;
}

void SimCluster::handleControl(const HttpRequest &request, const HttpResponderPtr &responder)
{
    const QByteArray &path = request.path;
    if (request.method == "GET" && path == "/cluster") {
        responder->respond(200, "application/json", stateJson());
        return;
    }
    if (request.method != "POST") {
        reply(responder, 404, {{"detail", "Not Found"}});
        return;
    }
    if (path == "/cluster/proxy/stop") {
        stopProxy();
        reply(responder, 200, {{"proxy_running", false}});
        return;
    }
    if (path == "/cluster/proxy/fault") {
        // {"admin_errors": N}: the next N calls of /instances/add or /remove answer 500 (0 clears it).
        const json j
            = json::parse(request.body.constData(), request.body.constData() + request.body.size(), nullptr, false);
        if (!m_proxy || !j.is_object() || !j.contains("admin_errors") || !j["admin_errors"].is_number_integer()) {
            reply(responder, 400, { { "error", "expected {\"admin_errors\": N} while the proxy runs" } });
            return;
        }
        m_proxy->failNextAdminCalls(j["admin_errors"].get<int>());
        reply(responder, 200, { { "admin_errors", m_proxy->adminErrorsLeft() } });
        return;
    }
    if (path == "/cluster/proxy/start") {
        // Optional {"prefill_instances": [...], "decode_instances": [...]}: the command line's lists.
        std::optional<QPair<QStringList, QStringList>> lists;
        if (!request.body.trimmed().isEmpty() && request.body.trimmed() != "{}") {
            const json j = json::parse(request.body.constData(), request.body.constData() + request.body.size(), nullptr, false);
            auto strings = [](const json &a, QStringList *out) {
                if (!a.is_array() || a.empty())
                    return false;
                for (const json &s : a) {
                    if (!s.is_string())
                        return false;
                    out->append(QString::fromStdString(s.get<std::string>()));
                }
                return true;
            };
            QPair<QStringList, QStringList> given;
            if (!j.is_object() || !strings(j.value("prefill_instances", json()), &given.first)
                || !strings(j.value("decode_instances", json()), &given.second)) {
                reply(responder, 400, {{"error", "expected {\"prefill_instances\": [\"host:port\", ...], \"decode_instances\": [...]}, "
                                                 "each list non-empty (the proxy needs one instance per pool)"}});
                return;
            }
            lists = given;
        }
        QString error;
        if (m_proxy && lists) {
            reply(responder, 409, {{"error", "the proxy is running; stop it before starting it with other lists"}});
            return;
        }
        if (!m_proxy && !startProxy(&error, lists)) {
            reply(responder, 500, {{"error", error.toStdString()}});
            return;
        }
        reply(responder, 200, {{"proxy_running", true}});
        return;
    }
    if (path == "/cluster/load") {
        const json j = json::parse(request.body.constData(), request.body.constData() + request.body.size(), nullptr, false);
        const bool rpsOk = j.is_object() && j.contains("rps") && j["rps"].is_number() && j["rps"].get<double>() >= 0;
        const bool streamsOk = j.is_object() && j.contains("streams") && j["streams"].is_number_integer()
            && j["streams"].get<int>() >= 0 && j["streams"].get<int>() <= 4096;
        const bool badRps = j.is_object() && j.contains("rps") && !rpsOk;
        const bool badStreams = j.is_object() && j.contains("streams") && !streamsOk;
        if ((!rpsOk && !streamsOk) || badRps || badStreams) {
            reply(responder, 400,
                { { "error", "expected {\"rps\": number >= 0} and/or {\"streams\": integer 0-4096}" } });
            return;
        }
        if (!m_load) {
            const pd::Profile &profile = m_options.profile;
            m_load = new LoadGenerator(QHostAddress(m_addresses.proxyHost()), quint16(profile.proxy.port),
                                       profile.decode.servedModelName.isEmpty() ? QStringLiteral("deepseek_r1")
                                                                                : profile.decode.servedModelName,
                                       std::min(profile.prefill.maxModelLen, profile.decode.maxModelLen),
                                       m_options.seed, this);
            m_load->setMaxInFlight(m_options.loadMaxInFlight);
        }
        if (rpsOk)
            m_load->setRate(j["rps"].get<double>());
        if (streamsOk)
            m_load->setStreams(j["streams"].get<int>());
        reply(responder, 200, { { "rps", m_load->rate() }, { "streams", m_load->streams() } });
        return;
    }
    const bool doStart = path == "/cluster/engines/start";
    const bool doStop = path == "/cluster/engines/stop";
    const bool doFault = path == "/cluster/engines/fault";
    if (!doStart && !doStop && !doFault) {
        reply(responder, 404, {{"detail", "Not Found"}});
        return;
    }
    QString error;
    const QList<int> indexes = select(request.body, &error);
    if (!error.isEmpty()) {
        reply(responder, 400, {{"error", error.toStdString()}});
        return;
    }
    FaultKind kind = FaultKind::None;
    int ms = 0;
    if (doFault) {
        const json j = json::parse(request.body.constData(), request.body.constData() + request.body.size(), nullptr, false);
        const auto parsed = j.contains("kind") && j["kind"].is_string()
                                ? faultKindFromName(QString::fromStdString(j["kind"].get<std::string>()))
                                : std::nullopt;
        if (!parsed) {
            reply(responder, 400, { { "error", "\"kind\" must be one of " + faultKindNames().toStdString() } });
            return;
        }
        kind = *parsed;
        ms = j.contains("ms") && j["ms"].is_number_integer() ? j["ms"].get<int>() : 0;
    }
    json changed = json::array();
    for (const int index : indexes) {
        EngineShard *shard = m_shards.at(m_engines.at(index).shard);
        if (doStart)
            startEngine(index);
        else if (doStop)
            stopEngine(index);
        else
            QMetaObject::invokeMethod(shard, [shard, index, kind, ms] { shard->setFault(index, kind, ms); }, Qt::QueuedConnection);
        changed.push_back(m_engines.at(index).listenId.toStdString());
    }
    reply(responder, 200, {{"engines", changed}});
}

} // namespace pd::sim
