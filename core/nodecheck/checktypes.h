// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "exec/commandrunner.h"
#include "util/enumnames.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>

// Value types of the node checks (spec ascend-node-tools.md §2): one verdict per (node, device, check)
// with the reason an operator reads and the raw output it came from.
namespace pd {

// Ordered by how bad: the worst verdict of a cell is the max.
enum class Verdict { Pass, Unknown, Warning, Fail };
template<> inline constexpr std::size_t enumCount<Verdict> = std::size_t(Verdict::Fail) + 1;

enum class CheckKind {
    Reach, // the node answered (SSH / local shell), node level
    Tools, // hccn_tool and npu-smi found on PATH, node level
    NpuTable, // `npu-smi info`, node level (platform, device count, health summary)
    HccnConf, // /etc/hccn.conf: file (node level) and per-device agreement with the live values
    Lldp,
    Link,
    NetHealth,
    NetDetect,
    Gateway,
    Ip, // A2 RoCE address
    Vnic, // A3 vNIC address
    Tls,
    NpuHealth, // `npu-smi info -t health`
    SpodInfo, // A3 `npu-smi info -t spod-info`
    Ping, // A2 `-ping` to the peer node's device
    HccsPing, // A3 `-hccs_ping` to the peer node's device
    // (the last value: enumCount below counts up to it)
};
template<> inline constexpr std::size_t enumCount<CheckKind> = std::size_t(CheckKind::HccsPing) + 1;

QString verdictName(Verdict verdict); // "pass" | "unknown" | "warning" | "fail"
// verdictName() in the operator's language (pd::NodeCheck), for views; reports keep verdictName().
QString verdictLabel(Verdict verdict);
QString checkKindName(CheckKind kind); // stable id: "link", "net_health", "hccs_ping", ...
Verdict worse(Verdict a, Verdict b);

struct CheckResult {
    QString node;
    int device = -1; // hccn device (physical) id; -1 for node-level checks
    CheckKind kind = CheckKind::Reach;
    Verdict verdict = Verdict::Unknown;
    QString reason; // one line an operator reads ("link status: DOWN")
    QString command; // what ran on the node
    QByteArray out; // raw stdout of that command
    QByteArray err; // raw stderr
    int exitCode = -1; // -1: did not run / no exit code
    QMap<QString, QString> values; // parsed facts ("ip", "tls_switch", "ifname", ...)
};

// What to check on one node.
struct NodeCheckTarget {
    CommandTarget target;
    NpuGeneration generation = NpuGeneration::A3;
    int deviceCount = 16; // hccn devices: 8 on A2, 16 on A3
    QStringList npuIps; // profile device IPs (index = device), may be empty
    QString containerTool = QStringLiteral("docker"); // the checks run where the node's engines run:
    QString containerName;                            // inside this container when set
};

struct NodeReport {
    QString node;
    QString host;
    NpuGeneration generation = NpuGeneration::A3;
    int deviceCount = 0;
    bool reachable = false;
    bool timedOut = false;
    QString transportError;
    qint64 elapsedMs = 0;
    QList<CheckResult> checks;

    Verdict cellVerdict(int device) const; // worst verdict of the device's checks (-1: node level)
    QList<CheckResult> cellChecks(int device) const;
    const CheckResult *find(CheckKind kind, int device) const;
    CheckResult *find(CheckKind kind, int device);
};

struct ClusterReport {
    QDateTime started;
    QDateTime finished;
    QList<NodeReport> nodes;

    int count(Verdict verdict) const;
};

} // namespace pd
