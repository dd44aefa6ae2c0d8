// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace pd::bench {

// Benchmarks that build widgets draw offscreen unless QT_QPA_PLATFORM names a platform: they need no
// display, and a real one would add its own noise. Call before the QApplication is made.
inline void drawOffscreenUnlessAsked()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

} // namespace pd::bench
