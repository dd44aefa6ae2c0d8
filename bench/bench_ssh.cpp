// SPDX-License-Identifier: MIT
// SSH layer figures on loopback against real sshds (tests/ssh harness): session setup (TCP, key
// exchange, host key check, public key auth), per-command round trip on a kept-open session (raw,
// and with the remote timeout wrapper every timed command gets), and commands per second to 8
// nodes through pools of 2, 4 and 8 worker threads. A command's round trip includes the node's
// login shell start (sshd runs `$SHELL -c`, and bash reads ~/.bashrc when started by sshd), so it
// is printed beside the same shell started locally.
#include "sshdharness.h"

#include "ssh/sshconnection.h"
#include "ssh/sshkeyring.h"
#include "ssh/sshpool.h"
#include "ssh/sshprompts.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <libssh/libssh.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <vector>

using namespace std::chrono_literals;

namespace {

struct Stats {
    double median;
    double p90;
    double mean;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v)
        sum += x;
    return { v[v.size() / 2], v[v.size() * 9 / 10], sum / static_cast<double>(v.size()) };
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    qunsetenv("SSH_AUTH_SOCK");
    pd::test::SshdHarness harness(8);
    QString error;
    if (!harness.start(&error) || !harness.trustAllHostKeys(&error)) {
        std::fprintf(stderr, "bench_ssh: %s\n", qPrintable(error));
        return 1;
    }
    const pd::SshSettings settings = harness.settings();
    auto prompts = std::make_shared<pd::FixedSshPrompts>();
    pd::SshKeyring keyring;
    const std::atomic_bool never { false };

    std::vector<double> setup;
    for (int i = 0; i < 30; ++i) {
        pd::SshConnection connection({ harness.target(i % 8), {}, {} }, settings, prompts.get(), &keyring);
        QElapsedTimer t;
        t.start();
        const QString why = connection.open();
        setup.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (!why.isEmpty()) {
            std::fprintf(stderr, "bench_ssh: %s\n", qPrintable(why));
            return 1;
        }
    }
    const Stats s = stats(setup);
    std::printf("session setup (connect + kex + host key + pubkey auth), 30 sessions: median %.1f ms, "
                "p90 %.1f ms, mean %.1f ms\n",
        s.median, s.p90, s.mean);

    pd::SshConnection connection({ harness.target(0), {}, {} }, settings, prompts.get(), &keyring);
    if (const QString why = connection.open(); !why.isEmpty()) {
        std::fprintf(stderr, "bench_ssh: %s\n", qPrintable(why));
        return 1;
    }
    for (const auto timeout : { 0ms, 10000ms }) {
        std::vector<double> rtt;
        for (int i = 0; i < 50; ++i) {
            QElapsedTimer t;
            t.start();
            const pd::CommandResult r = connection.exec("true", timeout, never);
            rtt.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            if (!r.ok()) {
                std::fprintf(stderr, "bench_ssh: %s\n", qPrintable(r.error));
                return 1;
            }
        }
        const Stats c = stats(rtt);
        std::printf("command round trip on a kept-open session (`true`, %s), 50 commands: median %.2f ms, "
                    "p90 %.2f ms\n",
            timeout.count() ? "with the remote timeout wrapper" : "no timeout", c.median, c.p90);
    }

    {
        // Transport only: open and close a session channel on the kept-open session (one SSH round
        // trip through sshd, no process started on the node).
        std::vector<double> channel;
        for (int i = 0; i < 200; ++i) {
            QElapsedTimer t;
            t.start();
            ssh_channel c = ssh_channel_new(connection.rawSession());
            if (!c || ssh_channel_open_session(c) != SSH_OK) {
                std::fprintf(stderr, "bench_ssh: channel open failed\n");
                return 1;
            }
            ssh_channel_close(c);
            ssh_channel_free(c);
            channel.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        const Stats c = stats(channel);
        std::printf("channel open+close on a kept-open session (transport only), 200 channels: median %.2f ms, "
                    "p90 %.2f ms\n",
            c.median, c.p90);
    }

    for (int threads : { 2, 4, 8 }) {
        pd::SshSettings poolSettings = settings;
        poolSettings.workerThreads = threads;
        pd::SshPool pool(poolSettings, prompts);
        // Warm up: one session per node.
        std::mutex mutex;
        std::condition_variable cv;
        int done = 0;
        int failed = 0;
        const auto submit = [&](int count) {
            for (int i = 0; i < count; ++i)
                pool.submitCommand(harness.target(i % 8), "echo ok", 10s, [&](pd::CommandResult r) {
                    std::lock_guard lock(mutex);
                    ++done;
                    failed += r.ok() ? 0 : 1;
                    cv.notify_all();
                });
        };
        const auto wait = [&](int count) {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return done >= count; });
        };
        submit(8);
        wait(8);
        constexpr int commands = 160;
        QElapsedTimer t;
        t.start();
        submit(commands);
        wait(8 + commands);
        const double seconds = static_cast<double>(t.nsecsElapsed()) / 1e9;
        std::printf("8 nodes, %d worker threads: %d commands (`echo ok`, timeout wrapper) in %.2f s = "
                    "%.0f commands/s, %d failed\n",
            threads, commands, seconds, commands / seconds, failed);
    }
    return 0;
}
