// SPDX-License-Identifier: MIT
#pragma once
// Waiting on a condition with the test's event loop running, for clients whose server lives in the test's
// own thread (pdsim's HTTP server, an engine): the condition is checked again after every pass of the
// event loop, and the loop sleeps only until the next event (a socket's bytes, a timer), never a fixed time.
// QTest::qWaitFor sleeps 10 ms between passes, which a request-per-step client pays on every step.

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>

namespace pd::test {

// True as soon as done() holds; false when it still does not after timeoutMs.
template<typename Done> bool waitUntil(Done done, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        const qint64 left = deadline.remainingTime();
        if (left <= 0)
            return false;
        QTimer wake; // bounds the wait when no event comes (a condition that is not an event's effect)
        wake.setSingleShot(true);
        wake.start(int(std::min<qint64>(left, 10)));
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    return true;
}

} // namespace pd::test
