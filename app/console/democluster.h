// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

// `pdconsole --demo`: runs `pdsim cluster` on the embedded 8-node loopback profile with a background
// load, reports when it is ready, and stops it (SIGTERM, then SIGKILL) when the console exits.
// The demo is a cluster the console's ordinary code paths can work on: the profile copy's run_dir is
// the demo's temporary directory and pdsim writes every engine's and the proxy's log there
// (--log-dir), where the log tail looks for them; and the demo's node tools (pdsim's demo-tools:
// fake hccn_tool / npu-smi, one link DOWN on d3) come first on this process's PATH, which the local
// runner's shells inherit (the runner has no environment of its own to set), so the node checks run
// them as they would run the real tools on a node.
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
    // The demo's node tools that belong to this pdsim: <its dir>/demo-tools (build tree) or
    // <its dir>/../libexec/pdconsole/demo-tools (installed); empty when there are none.
    static QString findDemoTools(const QString &pdsim);
    // The DP groups the demo leaves stopped (none of their ranks in the profile's proxy lists), by id.
    QStringList heldGroups() const { return m_heldGroups; }

Q_SIGNALS:
    // engines: how many serve (the held-back groups' ranks are not counted).
    void ready(const QString &proxyAddress, int engines);
    void failed(const QString &reason);

private:
    bool writeProfile(const QString &profileResource, QString *error);
    void useDemoTools(const QString &pdsim);
    void restoreEnvironment();
    void holdBack(const QString &proxy, int engines);

    QProcess m_process;
    QTemporaryDir m_dir;
    QString m_profilePath;
    QString m_control;
    QStringList m_heldGroups;
    QByteArray m_stdout;
    QByteArray m_stderrTail;
    QString m_tools;
    QByteArray m_savedPath;
    QByteArray m_savedConf;
    bool m_environmentChanged = false;
};
