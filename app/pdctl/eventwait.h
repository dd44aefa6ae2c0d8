// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>

#include <functional>

namespace pdctl {

// Runs the event loop until `ready()` or the timeout; what ready() says last.
inline bool spin(const std::function<bool()> &ready, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!ready() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return ready();
}

} // namespace pdctl
