// SPDX-License-Identifier: MIT
#include "pdsimcluster.h"

#include <QRegularExpression>
#include <QTest>

namespace pd::test {

PdsimCluster::~PdsimCluster()
{
    stop();
}

QString PdsimCluster::start(const QString &profile, const QStringList &extraArguments)
{
    m_process.setProgram(QStringLiteral(PD_BINARY_DIR "/sim/pdsim"));
    m_process.setArguments(QStringList{ QStringLiteral("cluster"), QStringLiteral("--profile"), profile } + extraArguments);
    m_process.setProcessChannelMode(
        m_errorFile.isEmpty() ? QProcess::ForwardedErrorChannel : QProcess::SeparateChannels);
    if (!m_errorFile.isEmpty())
        m_process.setStandardErrorFile(m_errorFile);
    m_process.start();
    if (!m_process.waitForStarted(5000))
        return QStringLiteral("pdsim did not start: ") + m_process.errorString();
    QByteArray out;
    const bool lineRead = QTest::qWaitFor(
        [this, &out] {
            out += m_process.readAllStandardOutput();
            return out.contains('\n') || m_process.state() == QProcess::NotRunning;
        },
        30000);
    const auto match = QRegularExpression(QStringLiteral("control=([0-9.]+:[0-9]+)")).match(QString::fromUtf8(out));
    if (!lineRead || !match.hasMatch())
        return QStringLiteral("pdsim cluster --profile %1 did not say it was ready: \"%2\"")
            .arg(profile, QString::fromUtf8(out.left(2000)));
    m_control = match.captured(1);
    return {};
}

bool PdsimCluster::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return true;
    m_process.terminate();
    if (m_process.waitForFinished(10000))
        return true;
    m_process.kill();
    m_process.waitForFinished(5000);
    return false;
}

} // namespace pd::test
