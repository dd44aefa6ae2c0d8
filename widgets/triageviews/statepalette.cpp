// SPDX-License-Identifier: MIT
#include "triageviews/statepalette.h"

namespace pd {

QColor engineStateColor(EngineState state)
{
    switch (state) {
    case EngineState::Unknown:
        return QColor(0x9e, 0x9e, 0x9e);
    case EngineState::Stopped:
        return QColor(0x61, 0x61, 0x61);
    case EngineState::Starting:
        return QColor(0x1e, 0x88, 0xe5);
    case EngineState::ReadyNotInProxy:
        return QColor(0x00, 0x89, 0x7b);
    case EngineState::WaitingInProxy:
        return QColor(0x7e, 0x57, 0xc2);
    case EngineState::Serving:
        return QColor(0x2e, 0x7d, 0x32);
    case EngineState::Draining:
        return QColor(0xf9, 0xa8, 0x25);
    case EngineState::Stalled:
        return QColor(0xef, 0x6c, 0x00);
    case EngineState::Unhealthy:
        return QColor(0xc6, 0x28, 0x28);
    case EngineState::Unreachable:
        return QColor(0x88, 0x0e, 0x4f);
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

QString engineStateGlyph(EngineState state)
{
    switch (state) {
    case EngineState::Unknown:
        return QStringLiteral("?");
    case EngineState::Stopped:
        return QStringLiteral("■");
    case EngineState::Starting:
        return QStringLiteral("◔");
    case EngineState::ReadyNotInProxy:
        return QStringLiteral("○");
    case EngineState::WaitingInProxy:
        return QStringLiteral("◑");
    case EngineState::Serving:
        return QStringLiteral("●");
    case EngineState::Draining:
        return QStringLiteral("◒");
    case EngineState::Stalled:
        return QStringLiteral("⏸");
    case EngineState::Unhealthy:
        return QStringLiteral("✚");
    case EngineState::Unreachable:
        return QStringLiteral("✖");
    }
    return QStringLiteral("?");
}

QColor severityColor(ProblemSeverity severity)
{
    switch (severity) {
    case ProblemSeverity::Critical:
        return QColor(0xb3, 0x26, 0x1e);
    case ProblemSeverity::Error:
        return QColor(0xe6, 0x51, 0x00);
    case ProblemSeverity::Warning:
        return QColor(0xb2, 0x8a, 0x00);
    }
    return QColor(0xb2, 0x8a, 0x00);
}

QString severityGlyph(ProblemSeverity severity)
{
    switch (severity) {
    case ProblemSeverity::Critical:
        return QStringLiteral("‼"); // in DejaVu Sans (U+26D4 is not: it drew a box)
    case ProblemSeverity::Error:
        return QStringLiteral("✖");
    case ProblemSeverity::Warning:
        return QStringLiteral("⚠");
    }
    return QStringLiteral("⚠");
}

} // namespace pd
