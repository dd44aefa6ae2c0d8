// SPDX-License-Identifier: MIT
#pragma once

#include "eventwait.h"

#include <QString>
#include <QTextStream>

#include <atomic>
#include <csignal>
#include <functional>

// SIGINT (Ctrl-C) and SIGTERM (systemd, kill) as a flag a verb's event loop polls, for as long as the
// scope lives: a long-running verb ends at a safe point instead of dying between a request and its
// record. The first signal sets the flag and puts the default action back, so a second one ends the
// process at once (an operator who presses Ctrl-C twice means it).
namespace pdctl {

class InterruptScope final {
public:
    InterruptScope()
    {
        s_count.store(0);
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
    }
    ~InterruptScope()
    {
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
    }
    InterruptScope(const InterruptScope &) = delete;
    InterruptScope &operator=(const InterruptScope &) = delete;

    bool interrupted() const { return s_count.load() > 0; }
    static int signalNumber() { return s_last.load(); }

private:
    static void onSignal(int sig)
    {
        s_last.store(sig);
        s_count.fetch_add(1);
        std::signal(sig, SIG_DFL);
    }
    static inline std::atomic<int> s_count { 0 };
    static inline std::atomic<int> s_last { 0 };
};

// Runs the event loop until `finished`; at the first SIGINT or SIGTERM prints `note` and calls `cancel`
// once (the operations stop at their next safe point), then goes on until `finished`. Whether a signal
// came, and then which one in *signal.
inline bool runUntilFinished(const std::function<bool()> &finished, const std::function<void()> &cancel,
    QTextStream &out, const QString &note, int *signal = nullptr)
{
    InterruptScope interrupts;
    bool cancelled = false;
    spin(
        [&] {
            if (interrupts.interrupted() && !cancelled) {
                cancelled = true;
                out << "interrupted (signal " << InterruptScope::signalNumber() << "): " << note << '\n' << Qt::flush;
                cancel();
            }
            return finished();
        },
        24 * 3600 * 1000);
    if (signal)
        *signal = InterruptScope::signalNumber();
    return cancelled;
}

} // namespace pdctl
