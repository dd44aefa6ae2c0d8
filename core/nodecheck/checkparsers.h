// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checksuite.h"
#include "nodecheck/checktypes.h"

// Parsers and per-command verdict rules of spec ascend-node-tools.md §2. They match key text with
// regular expressions (never column offsets) and accept the drift the spec documents: `netdetect addr:`
// and `netdetect address:`, `tls preconfigured[..]` present or absent, `packet loss` / `packets loss`,
// `time=` / `time-`, npu-smi column widths, `Health` / `Health Status`.
namespace pd {

struct JudgeContext {
    NpuGeneration generation = NpuGeneration::A3;
    int deviceCount = 16;
    bool roceOptional = false; // A3 cluster that does not use the RoCE plane: link DOWN is a warning
};

// The verdict of one section's output (the common rule first: a timeout, a non-zero exit code or a
// stderr line is a failure unless the command's own rule knows better).
CheckResult judgeSection(const CheckSection &section, const SectionOutput &output, const JudgeContext &context);

// npu-smi info table (§2.12), parsed; exposed for tests and for the grid's node column.
struct NpuSmiDevice {
    int npu = -1;
    int chip = -1;
    int phyId = -1; // A3 only
    QString name;
    QString health;
    QString busId;
    int hbmUsedMb = -1;
    int hbmTotalMb = -1;
};
struct NpuSmiTable {
    QString version;
    bool a3Layout = false; // "Chip  Phy-ID" header row
    QList<NpuSmiDevice> devices;
    QList<QPair<int, int>> processes; // (npu, pid)
    QString error; // dcmi / no-card message instead of a table
    bool driverWarning = false;
};
NpuSmiTable parseNpuSmiTable(const QByteArray &text);

// /etc/hccn.conf: key_N=value lines (§2.11) -> device -> key -> value.
QMap<int, QMap<QString, QString>> parseHccnConf(const QByteArray &text);

} // namespace pd
