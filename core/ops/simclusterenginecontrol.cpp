// SPDX-License-Identifier: MIT
#include "ops/simclusterenginecontrol.h"

#include "net/httprequest.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>

#include <nlohmann/json.hpp>

namespace pd {

SimClusterEngineControl::SimClusterEngineControl(const QUrl &controlBase, QObject *parent)
    : EngineControl(parent)
    , m_network(new QNetworkAccessManager(this))
    , m_base(controlBase)
{
}

QString SimClusterEngineControl::describe() const
{
    return QStringLiteral("pdsim cluster control API at %1").arg(m_base.authority());
}

void SimClusterEngineControl::post(const QString &path, const QByteArray &body, const QString &what, Done done)
{
    QUrl url = m_base;
    url.setPath(path);
    QNetworkReply *reply = m_network->post(
        makeHttpRequest(
            HttpRequestSpec(url).withTimeout(m_timeoutMs).withContentType(QByteArrayLiteral("application/json"))),
        body);
    connect(reply, &QNetworkReply::finished, this, [reply, what, url, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        ControlResult r;
        r.ok = status == 200;
        if (!r.ok)
            r.error = status == 0 ? QStringLiteral("%1: %2").arg(url.toString(), reply->errorString())
                                  : QStringLiteral("%1 answered HTTP %2 for %3: %4")
                                        .arg(url.toString())
                                        .arg(status)
                                        .arg(what, QString::fromUtf8(reply->readAll().left(200)));
        done(r);
    });
}

void SimClusterEngineControl::post(const QString &path, const EngineRef &engine, Done done)
{
    const nlohmann::json body { { "engines", { engine.id.toStdString() } } };
    post(path, QByteArray::fromStdString(body.dump()), engine.id, std::move(done));
}

void SimClusterEngineControl::clusterState(std::function<void(const nlohmann::json &, const QString &)> done)
{
    QUrl url = m_base;
    url.setPath(QStringLiteral("/cluster"));
    QNetworkReply *reply = m_network->get(makeHttpRequest(HttpRequestSpec(url).withTimeout(m_timeoutMs)));
    connect(reply, &QNetworkReply::finished, this, [reply, url, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status != 200) {
            done(nlohmann::json(),
                status == 0 ? QStringLiteral("%1: %2").arg(url.toString(), reply->errorString())
                            : QStringLiteral("%1 answered HTTP %2").arg(url.toString()).arg(status));
            return;
        }
        const QByteArray bytes = reply->readAll();
        const nlohmann::json state
            = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
        if (!state.is_object() || !state.contains("engines") || !state["engines"].is_array()) {
            done(nlohmann::json(), QStringLiteral("%1: not a cluster state").arg(url.toString()));
            return;
        }
        done(state, QString());
    });
}

void SimClusterEngineControl::engineState(
    const EngineRef &engine, std::function<void(const QString &, const QString &, const QString &)> done)
{
    clusterState([engine, done = std::move(done)](const nlohmann::json &state, const QString &error) {
        if (!error.isEmpty()) {
            done({}, {}, error);
            return;
        }
        const std::string id = engine.id.toStdString();
        for (const auto &e : state["engines"]) {
            if (e.value("id", std::string()) == id || e.value("profile_id", std::string()) == id) {
                done(QString::fromStdString(e.value("status", std::string())),
                    QString::fromStdString(e.value("node", std::string())), QString());
                return;
            }
        }
        done({}, {}, QStringLiteral("the simulated cluster has no engine %1").arg(engine.id));
    });
}

void SimClusterEngineControl::preflight(const EngineRef &engine, PreflightDone done)
{
    engineState(
        engine, [engine, done = std::move(done)](const QString &status, const QString &node, const QString &error) {
            PreflightReport report;
            if (!error.isEmpty()) {
                report.error = error;
            } else if (!engine.node.isEmpty() && node != engine.node) {
                report.error = QStringLiteral("%1 runs on node %2 in the cluster, the profile says %3")
                                   .arg(engine.id, node, engine.node);
            } else if (status == QLatin1String("crashed")) {
                report.error = QStringLiteral("%1 crashed; look at its log before starting it again").arg(engine.id);
            } else {
                report.ok = true;
                report.passed << QStringLiteral("node %1 reachable (simulated cluster answers)").arg(node)
                              << QStringLiteral("engine process: %1").arg(status)
                              << QStringLiteral("NPU health: simulated node, no NPUs to check");
            }
            done(report);
        });
}

void SimClusterEngineControl::start(const EngineRef &engine, Done done)
{
    post(QStringLiteral("/cluster/engines/start"), engine, std::move(done));
}

void SimClusterEngineControl::stop(const EngineRef &engine, Done done)
{
    post(QStringLiteral("/cluster/engines/stop"), engine, std::move(done));
}

void SimClusterEngineControl::isRunning(const EngineRef &engine, RunningDone done)
{
    engineState(engine, [done = std::move(done)](const QString &status, const QString &, const QString &error) {
        if (!error.isEmpty()) {
            done(std::nullopt, error);
            return;
        }
        done(status != QLatin1String("stopped") && status != QLatin1String("crashed"), QString());
    });
}

void SimClusterEngineControl::startProxy(Done done)
{
    post(QStringLiteral("/cluster/proxy/start"), QByteArrayLiteral("{}"), QStringLiteral("the proxy"), std::move(done));
}

void SimClusterEngineControl::startProxyWith(const ProxyLists &lists, Done done)
{
    nlohmann::json body = nlohmann::json::object();
    for (const auto &[key, ids] :
        { std::pair { "prefill_instances", &lists.prefill }, std::pair { "decode_instances", &lists.decode } }) {
        nlohmann::json array = nlohmann::json::array();
        for (const QString &id : *ids)
            array.push_back(id.toStdString());
        body[key] = array;
    }
    post(QStringLiteral("/cluster/proxy/start"), QByteArray::fromStdString(body.dump()), QStringLiteral("the proxy"),
        std::move(done));
}

void SimClusterEngineControl::stopProxy(Done done)
{
    post(QStringLiteral("/cluster/proxy/stop"), QByteArrayLiteral("{}"), QStringLiteral("the proxy"), std::move(done));
}

void SimClusterEngineControl::isProxyRunning(RunningDone done)
{
    clusterState([done = std::move(done)](const nlohmann::json &state, const QString &error) {
        if (!error.isEmpty()) {
            done(std::nullopt, error);
            return;
        }
        const auto running = state.find("proxy_running");
        if (running == state.end() || !running->is_boolean()) {
            done(std::nullopt, QStringLiteral("the simulated cluster does not say whether its proxy runs"));
            return;
        }
        done(running->get<bool>(), QString());
    });
}

void SimClusterEngineControl::proxyCommandLine(CommandLineDone done)
{
    clusterState([done = std::move(done)](const nlohmann::json &state, const QString &error) {
        if (!error.isEmpty())
            return done(std::nullopt, error);
        if (!state.value("proxy_running", false))
            return done(std::nullopt, QStringLiteral("the simulated cluster's proxy is not running"));
        const auto args = state.find("proxy_arguments");
        if (args == state.end() || !args->is_array())
            return done(std::nullopt, QStringLiteral("the simulated cluster does not say how its proxy was started"));
        QStringList argv;
        for (const auto &a : *args) {
            if (!a.is_string())
                return done(std::nullopt, QStringLiteral("the simulated cluster's proxy_arguments hold a non-string"));
            argv << QString::fromStdString(a.get<std::string>());
        }
        done(argv, QString());
    });
}

} // namespace pd
