// SPDX-License-Identifier: MIT
#include "prometheusharness.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include <csignal>

#include <sys/prctl.h>

namespace pd::test {

namespace {

// GET url, spinning a local event loop (test code only), bounded by timeoutMs.
QByteArray httpGet(const QUrl &url, int timeoutMs, int *status)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = nam.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0))
        return 0;
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

} // namespace

PrometheusHarness::PrometheusHarness() = default;

PrometheusHarness::~PrometheusHarness()
{
    stop();
}

QString PrometheusHarness::binary()
{
    return QStandardPaths::findExecutable(QStringLiteral("prometheus"));
}

qint64 PrometheusHarness::pid() const
{
    return m_process ? m_process->processId() : 0;
}

bool PrometheusHarness::start(const QStringList &targets, QString *error)
{
    if (!m_dir.isValid()) {
        *error = QStringLiteral("no temporary directory");
        return false;
    }
    QStringList quoted;
    for (const QString &t : targets)
        quoted.append(QLatin1Char('"') + t + QLatin1Char('"'));
    const QByteArray config = "global:\n"
                              "  scrape_interval: 1s\n"
                              "  scrape_timeout: 900ms\n"
                              "scrape_configs:\n"
                              "  - job_name: vllm\n"
                              "    static_configs:\n"
                              "      - targets: ["
        + quoted.join(QStringLiteral(", ")).toUtf8() + "]\n";
    QFile f(m_dir.filePath(QStringLiteral("prometheus.yml")));
    if (!f.open(QIODevice::WriteOnly) || f.write(config) != config.size()) {
        *error = QStringLiteral("cannot write %1").arg(f.fileName());
        return false;
    }
    f.close();
    for (int attempt = 0; attempt < 5; ++attempt) {
        bool clash = false;
        if (startOnce(error, &clash))
            return true;
        if (!clash)
            return false;
    }
    return false;
}

bool PrometheusHarness::startOnce(QString *error, bool *portClash)
{
    const quint16 port = freePort();
    if (port == 0) {
        *error = QStringLiteral("no free port on 127.0.0.1");
        return false;
    }
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // A test that dies without running its destructors (an ASan abort, CTest's timeout kill) takes its
    // Prometheus with it instead of leaving it serving on the machine.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    m_process->start(binary(),
        { QStringLiteral("--config.file=") + m_dir.filePath(QStringLiteral("prometheus.yml")),
            QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
            QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port), QStringLiteral("--log.level=warn") });
    if (!m_process->waitForStarted(5000)) {
        *error = QStringLiteral("prometheus did not start: %1").arg(m_process->errorString());
        m_process.reset();
        return false;
    }
    m_url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        if (m_process->state() != QProcess::Running) {
            const QByteArray log = m_process->readAll();
            *portClash = log.contains("address already in use");
            *error = QStringLiteral("prometheus exited: %1").arg(QString::fromUtf8(log.right(400)));
            m_process.reset();
            return false;
        }
        int status = 0;
        httpGet(m_url.resolved(QUrl(QStringLiteral("/-/ready"))), 1000, &status);
        if (status == 200)
            return true;
        QThread::msleep(50);
    }
    *error = QStringLiteral("prometheus was not ready within 20 s");
    stop();
    return false;
}

void PrometheusHarness::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->terminate(); // SIGTERM to the PID this harness started
        if (!m_process->waitForFinished(10000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    m_process.reset();
}

bool PrometheusHarness::waitForScrapes(int targets, int timeoutMs, QString *error)
{
    QDeadlineTimer deadline(timeoutMs);
    int seen = 0;
    while (!deadline.hasExpired()) {
        QUrl url = m_url.resolved(QUrl(QStringLiteral("/api/v1/query")));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("query"), QStringLiteral("count_over_time(up[1m])"));
        url.setQuery(q);
        int status = 0;
        const QByteArray body = httpGet(url, 2000, &status);
        if (status == 200) {
            const auto doc = nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
            seen = 0;
            if (doc.is_object() && doc.contains("data") && doc["data"].contains("result")) {
                for (const auto &r : doc["data"]["result"]) {
                    if (std::stod(r["value"][1].get<std::string>()) >= 2)
                        ++seen;
                }
            }
            if (seen >= targets)
                return true;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
        QThread::msleep(100);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
    }
    *error
        = QStringLiteral("only %1 of %2 targets were scraped twice within %3 ms").arg(seen).arg(targets).arg(timeoutMs);
    return false;
}

} // namespace pd::test
