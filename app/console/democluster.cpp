// SPDX-License-Identifier: MIT
#include "democluster.h"

#include "cluster/dpgroups.h"
#include "cluster/profileformat.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSaveFile>
#include <QStandardPaths>

#include <csignal>
#include <sys/prctl.h>

DemoCluster::DemoCluster(QObject *parent)
    : QObject(parent)
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    // The simulator dies with the console even when the console cannot stop it (a crash, SIGKILL):
    // otherwise it keeps the demo's ports and the next --demo cannot start.
    m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, [this] {
        m_stdout += m_process.readAllStandardOutput();
        qsizetype end;
        while ((end = m_stdout.indexOf('\n')) >= 0) {
            const QByteArray line = m_stdout.left(end).trimmed();
            m_stdout.remove(0, end + 1);
            if (!line.startsWith("ready "))
                continue;
            QString proxy;
            int engines = 0;
            for (const QByteArray &word : line.split(' ')) {
                if (word.startsWith("proxy="))
                    proxy = QString::fromLatin1(word.mid(6));
                else if (word.startsWith("engines="))
                    engines = word.mid(8).toInt();
                else if (word.startsWith("control="))
                    m_control = QString::fromLatin1(word.mid(8));
            }
            holdBack(proxy, engines);
        }
    });
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderrTail += m_process.readAllStandardError();
        if (m_stderrTail.size() > 4096)
            m_stderrTail = m_stderrTail.right(4096);
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (status == QProcess::CrashExit || code != 0) {
            const QString tail = QString::fromUtf8(m_stderrTail).trimmed().section(QLatin1Char('\n'), -3);
            Q_EMIT failed(tr("the simulated cluster exited (status %1): %2").arg(code).arg(tail));
        }
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            Q_EMIT failed(tr("cannot start pdsim: %1").arg(m_process.errorString()));
    });
}

DemoCluster::~DemoCluster()
{
    stop();
}

QString DemoCluster::findPdsim()
{
    const QString here = QCoreApplication::applicationDirPath();
    const QStringList candidates{here + QStringLiteral("/pdsim"), here + QStringLiteral("/../../sim/pdsim")};
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("pdsim"));
}

bool DemoCluster::start(const QString &profileResource, QString *error)
{
    const QString pdsim = findPdsim();
    if (pdsim.isEmpty()) {
        *error = tr("pdsim was not found next to pdconsole, in the build tree, or on PATH");
        return false;
    }
    if (!m_dir.isValid()) {
        *error = tr("cannot create a temporary directory: %1").arg(m_dir.errorString());
        return false;
    }
    if (!writeProfile(profileResource, error))
        return false;
    useDemoTools(pdsim);
    // Five times real time: a 3.5k-token request with 1.1k output finishes in ~10 s, ratios unchanged.
    m_process.start(pdsim, {QStringLiteral("cluster"), QStringLiteral("--profile"), m_profilePath,
                            QStringLiteral("--time-scale"), QStringLiteral("5"), QStringLiteral("--load"),
                            QStringLiteral("4"), QStringLiteral("--waiting-retry-interval"), QStringLiteral("1"),
                            QStringLiteral("--log-dir"), m_dir.path()});
    return true;
}

// The profile as the demo runs it: its run_dir is the demo's directory, where pdsim writes the logs.
bool DemoCluster::writeProfile(const QString &profileResource, QString *error)
{
    m_profilePath = m_dir.filePath(QFileInfo(profileResource).fileName());
    QFile in(profileResource);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(profileResource, in.errorString());
        return false;
    }
    QJsonParseError parse;
    QJsonDocument doc = QJsonDocument::fromJson(in.readAll(), &parse);
    if (!doc.isObject()) {
        *error = tr("%1: offset %2: %3").arg(profileResource).arg(parse.offset).arg(parse.errorString());
        return false;
    }
    QJsonObject profile = doc.object();
    profile[QStringLiteral("run_dir")] = QDir(m_dir.path()).absolutePath();
    QSaveFile out(m_profilePath);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(profile).toJson()) < 0 || !out.commit()) {
        *error = tr("cannot write %1: %2").arg(m_profilePath, out.errorString());
        return false;
    }
    return true;
}

QString DemoCluster::findDemoTools(const QString &pdsim)
{
    const QString dir = QFileInfo(pdsim).absolutePath();
    const QStringList candidates { dir + QStringLiteral("/demo-tools"),
        dir + QStringLiteral("/../libexec/pdconsole/demo-tools") };
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate + QStringLiteral("/hccn_tool")).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return {};
}

// The local runner's shells inherit this process's environment: the tools go first on its PATH, and
// their fault selection (demo.conf) is named by FAKE_ASCEND_CONF. Restored when the demo stops.
void DemoCluster::useDemoTools(const QString &pdsim)
{
    m_tools = findDemoTools(pdsim);
    if (m_tools.isEmpty())
        return;
    m_savedPath = qgetenv("PATH");
    m_savedConf = qgetenv("FAKE_ASCEND_CONF");
    m_environmentChanged = true;
    const QByteArray tools = QFile::encodeName(m_tools);
    qputenv("PATH", m_savedPath.isEmpty() ? tools : tools + ':' + m_savedPath);
    qputenv("FAKE_ASCEND_CONF", tools + "/demo.conf");
}

void DemoCluster::restoreEnvironment()
{
    if (!m_environmentChanged)
        return;
    m_environmentChanged = false;
    qputenv("PATH", m_savedPath);
    if (m_savedConf.isEmpty())
        qunsetenv("FAKE_ASCEND_CONF");
    else
        qputenv("FAKE_ASCEND_CONF", m_savedConf);
}

void DemoCluster::stop()
{
    restoreEnvironment();
    if (m_process.state() == QProcess::NotRunning)
        return;
    // pdsim stops its engines on SIGTERM; 3 s is ample for the demo's 72, then it is killed.
    constexpr int kTermGraceMs = 3000;
    constexpr int kKillWaitMs = 1000;
    m_process.terminate();
    if (!m_process.waitForFinished(kTermGraceMs)) {
        m_process.kill();
        m_process.waitForFinished(kKillWaitMs);
    }
}

// The profile's proxy lists only some engines (demo-groups.json leaves one decode group out): pdsim starts
// every engine, so the ones the proxy does not list are stopped through the control API before the demo
// counts as ready. They stay stopped, outside the proxy, for the operator to start as a whole group.
void DemoCluster::holdBack(const QString &proxy, int engines)
{
    const pd::ProfileLoadResult loaded = pd::loadProfileFile(m_profilePath);
    QJsonArray held;
    if (loaded.profile) {
        const pd::Profile &profile = *loaded.profile;
        const pd::DpGroups groups(profile);
        for (const pd::DpGroup &group : groups.groups()) {
            const QStringList listed = profile.proxyInstances(group.role);
            bool anyListed = false;
            for (const QString &id : group.engineIds)
                anyListed = anyListed || listed.contains(id);
            if (anyListed)
                continue;
            m_heldGroups << group.id;
            for (const QString &id : group.engineIds)
                held.append(id);
        }
    }
    if (held.isEmpty() || m_control.isEmpty()) {
        Q_EMIT ready(proxy, engines);
        return;
    }
    auto *network = new QNetworkAccessManager(this);
    QNetworkRequest request(QUrl(QStringLiteral("http://%1/cluster/engines/stop").arg(m_control)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setTransferTimeout(10000);
    QNetworkReply *reply = network->post(request, QJsonDocument(QJsonObject{{QStringLiteral("engines"), held}}).toJson(QJsonDocument::Compact));
    const int serving = engines - int(held.size());
    connect(reply, &QNetworkReply::finished, this, [this, reply, network, proxy, serving, engines] {
        const bool ok = reply->error() == QNetworkReply::NoError;
        const QString why = reply->errorString();
        reply->deleteLater();
        network->deleteLater();
        if (!ok) {
            // The cluster runs, with every group started: say so, not "the demo stopped".
            qWarning("demo: cannot hold back the groups %s: %s", qPrintable(m_heldGroups.join(QStringLiteral(", "))), qPrintable(why));
            m_heldGroups.clear();
            Q_EMIT ready(proxy, engines);
            return;
        }
        Q_EMIT ready(proxy, serving);
    });
}
