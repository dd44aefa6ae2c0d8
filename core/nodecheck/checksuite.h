// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checktypes.h"

#include <QByteArray>
#include <QList>
#include <QString>

// The seeds' verification suites (000: A2 and A3 tabs; 001: with the TLS step) as data, and the one
// shell script per node that runs a suite and prints every command's stdout, stderr and exit code
// between delimiter lines, so a whole suite is one round trip and each raw output is kept.
namespace pd {

struct CheckSection {
    QString id; // unique within a suite: "link.3", "npu_smi", "hccs_ping.5"
    CheckKind kind = CheckKind::Reach;
    int device = -1; // hccn device id; -1 node level
    QString command; // shell words, already quoted
    QString peer; // ping target address
};

struct SectionOutput {
    QByteArray out;
    QByteArray err;
    int exitCode = -1;
    bool complete = false; // the END delimiter arrived (false when the node command was cut short)
};

struct SuiteOptions {
    QString hccnConfPath = QStringLiteral("/etc/hccn.conf");
    QString toolDir; // prepended to PATH on the node (fake tools in tests); empty: none
    int sectionTimeoutSec = 30; // per command, through timeout(1) when the node has it
};

// One suite per node for the local checks: tools, npu-smi, hccn.conf, then per device lldp, link,
// net_health, netdetect, gateway, ip (A2) or vnic (A3), tls, health, spod-info (A3).
QList<CheckSection> localSuite(NpuGeneration generation, int deviceCount, const SuiteOptions &options);

// The cross-node ping sections: device d pings peerIps[d] (A2 -ping, A3 -hccs_ping); empty entries skip.
QList<CheckSection> pingSuite(NpuGeneration generation, const QStringList &peerIps);

// The delimited shell script. token makes the delimiters unforgeable by tool output.
QByteArray suiteScript(const QList<CheckSection> &sections, const QByteArray &token, const SuiteOptions &options);

// Splits the script's stdout into per-section outputs, keyed by section id. Missing sections are absent.
QMap<QString, SectionOutput> splitSuiteOutput(const QByteArray &stdoutBytes, const QByteArray &token);

QByteArray newSuiteToken();

} // namespace pd
