// SPDX-License-Identifier: MIT
#include "engineoptions.h"

#include <QStringList>

namespace pd::sim {

namespace {
struct FaultName {
    FaultKind kind;
    const char *name;
};
constexpr FaultName kFaultNames[] = {
    { FaultKind::None, "none" },
    { FaultKind::Hang, "hang" },
    { FaultKind::Crash, "crash" },
    { FaultKind::Http500, "http500" },
    { FaultKind::Slow, "slow" },
    { FaultKind::MalformedMetrics, "malformed-metrics" },
    { FaultKind::Stall, "stall" },
    { FaultKind::KvStuck, "kv-stuck" },
    { FaultKind::KvPinned, "kv-pinned" },
    { FaultKind::CutStream, "cut-stream" },
    { FaultKind::BigMetrics, "big-metrics" },
};
} // namespace

QString faultKindName(FaultKind kind)
{
    for (const auto &f : kFaultNames) {
        if (f.kind == kind)
            return QString::fromLatin1(f.name);
    }
    return QStringLiteral("none");
}

std::optional<FaultKind> faultKindFromName(QStringView name)
{
    for (const auto &f : kFaultNames) {
        if (name == QLatin1String(f.name))
            return f.kind;
    }
    return std::nullopt;
}

QString faultKindNames()
{
    QStringList names;
    for (const auto &f : kFaultNames)
        names.append(QString::fromLatin1(f.name));
    return names.join(QStringLiteral(", "));
}

QString engineRoleName(EngineRole role)
{
    return role == EngineRole::Prefill ? QStringLiteral("prefill") : QStringLiteral("decode");
}

int EngineOptions::effectiveMaxNumSeqs() const
{
    if (maxNumSeqs > 0)
        return maxNumSeqs;
    return role == EngineRole::Prefill ? 4 : 28;
}

int EngineOptions::effectiveMaxBatchedTokens() const
{
    if (maxNumBatchedTokens > 0)
        return maxNumBatchedTokens;
    return role == EngineRole::Prefill ? 16384 : 256;
}

int EngineOptions::effectiveNumGpuBlocks() const
{
    if (numGpuBlocks > 0)
        return numGpuBlocks;
    return role == EngineRole::Prefill ? 782 : 2344;
}

} // namespace pd::sim
