// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

// `pdconsole --demo`: runs `pdsim cluster` on the embedded 8-node loopback profile with a background
// load, reports when it is ready, and stops it (SIGTERM, then SIGKILL) when the console exits.
class DemoCluster final : public QObject {
    Q_OBJECT
public:
    explicit DemoCluster(QObject *parent = nullptr);
    ~DemoCluster() override;

    // Writes the profile next to a temporary directory and starts pdsim. False with *error when pdsim
    // cannot be found or started.
    bool start(const QString &profileResource, QString *error);
    QString profilePath() const { return m_profilePath; }
    // host:port of pdsim's control API (starts and stops simulated engines); empty until ready.
    QString controlAddress() const { return m_control; }
    void stop();

    // pdsim next to this executable (installed), in the build tree, or on PATH.
    static QString findPdsim();

Q_SIGNALS:
    void ready(const QString &proxyAddress, int engines);
    void failed(const QString &reason);

private:
    QProcess m_process;
    QTemporaryDir m_dir;
    QString m_profilePath;
    QString m_control;
    QByteArray m_stdout;
    QByteArray m_stderrTail;
};
