// SPDX-License-Identifier: MIT
#include "triageviews/statepalette.h"

#include "apptheme.h"

namespace pd {

QColor engineStateColor(EngineState state)
{
    return engineStateColor(state, isDarkTheme());
}

QColor engineStateColor(EngineState state, bool dark)
{
    if (dark) {
        switch (state) {
        case EngineState::Unknown:
            return QColor(0xbd, 0xbd, 0xbd);
        case EngineState::Stopped:
            return QColor(0x8f, 0x8f, 0x8f);
        case EngineState::Starting:
            return QColor(0x64, 0xb5, 0xf6);
        case EngineState::ReadyNotInProxy:
            return QColor(0x4d, 0xd0, 0xc1);
        case EngineState::WaitingInProxy:
            return QColor(0xb3, 0x9d, 0xdb);
        case EngineState::Serving:
            return QColor(0x66, 0xbb, 0x6a);
        case EngineState::Draining:
            return QColor(0xff, 0xe0, 0x82);
        case EngineState::Stalled:
            return QColor(0xff, 0x98, 0x00);
        case EngineState::Unhealthy:
            return QColor(0xff, 0x6e, 0x6e);
        case EngineState::Unreachable:
            return QColor(0xf4, 0x8f, 0xb1);
        case EngineState::GroupBroken:
            return QColor(0xea, 0x80, 0xfc);
        }
    }
    switch (state) {
    case EngineState::Unknown:
        return QColor(0x8a, 0x8a, 0x8a); // 3.4:1 on white (0x9e9e9e was 2.7)
    case EngineState::Stopped:
        return QColor(0x50, 0x50, 0x50);
    case EngineState::Starting:
        return QColor(0x1e, 0x88, 0xe5);
    case EngineState::ReadyNotInProxy:
        return QColor(0x00, 0x89, 0x7b);
    case EngineState::WaitingInProxy:
        return QColor(0x7e, 0x57, 0xc2);
    case EngineState::Serving:
        return QColor(0x2e, 0x7d, 0x32);
    case EngineState::Draining:
        return QColor(0xb8, 0x77, 0x00); // amber at 3.7:1 on white (0xf9a825 was 2.0)
    case EngineState::Stalled:
        return QColor(0xef, 0x6c, 0x00);
    case EngineState::Unhealthy:
        return QColor(0xc6, 0x28, 0x28);
    case EngineState::Unreachable:
        return QColor(0x88, 0x0e, 0x4f);
    case EngineState::GroupBroken:
        return QColor(0x4a, 0x23, 0x8c); // deep violet, darker than Waiting in proxy
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
    case EngineState::GroupBroken:
        return QStringLiteral("⊘");
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
