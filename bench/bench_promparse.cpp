// SPDX-License-Identifier: MIT
// bench_promparse FILE...: throughput of the Prometheus text parser and of the vLLM extractor on
// each file (median of many timed batches). Parse-only delivers every sample with its labels and
// value; parse+extract is what the poller runs (MetricsExtractor, skipping what it does not read).
// The last line reads "promparse: <MB/s> MB/s, <ns> ns/sample, <N> samples" for the last file.
#include "metricsextractor.h"
#include "promparser.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct AllSamples final : pd::PromVisitor {
    double sum = 0;
    std::size_t labels = 0;
    void sample(const pd::PromSample &s) override
    {
        sum += s.value;
        labels += s.labels.size();
    }
};

volatile double g_sink = 0;

// The machine is shared (2 cores, others compiling): time in this thread's CPU time, so batches
// during which the thread was preempted do not count the other process's work.
struct Clock {
    static double now()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
    }
};

// Median nanoseconds per call of f over `trials` batches, each batch ~1 ms of CPU time.
template <typename F>
double medianNs(F &&f, int trials)
{
    int batch = 1;
    for (;;) {
        const auto t0 = Clock::now();
        for (int i = 0; i < batch; ++i)
            f();
        const double ns = Clock::now() - t0;
        if (ns > 1e6 || batch > (1 << 20))
            break;
        batch *= 2;
    }
    std::vector<double> per;
    per.reserve(std::size_t(trials));
    for (int t = 0; t < trials; ++t) {
        const auto t0 = Clock::now();
        for (int i = 0; i < batch; ++i)
            f();
        per.push_back((Clock::now() - t0) / batch);
    }
    std::nth_element(per.begin(), per.begin() + std::ptrdiff_t(per.size() / 2), per.end());
    return per[per.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    int trials = 201;
    if (const char *t = std::getenv("PD_BENCH_TRIALS"))
        trials = std::max(5, std::atoi(t));
    double lastMBs = 0, lastNs = 0;
    std::size_t lastSamples = 0;
    for (int a = 1; a < argc; ++a) {
        std::ifstream in(argv[a], std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "cannot read %s\n", argv[a]);
            return 1;
        }
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string body = ss.str();

        AllSamples all;
        const auto check = pd::PromParser::parse(body, all);
        if (!check.ok()) {
            std::fprintf(stderr, "%s: %s\n", argv[a], check.error.toString().c_str());
            return 1;
        }
        const std::size_t samples = check.samples;
        const double parseNs = medianNs([&] {
            AllSamples v;
            pd::PromParser::parse(body, v);
            g_sink = g_sink + v.sum;
        }, trials);
        pd::EngineMetrics m;
        const auto xr = pd::MetricsExtractor::extract(body, m);
        const double extractNs = medianNs([&] {
            pd::MetricsExtractor::extract(body, m);
            g_sink = g_sink + m.running;
        }, trials);
        const double mbs = double(body.size()) / parseNs * 1e3; // bytes/ns = GB/s; ×1e3 = MB/s
        const double nsPerSample = parseNs / double(samples);
        std::printf("%s: %zu bytes, %zu lines, %zu samples\n", argv[a], body.size(), check.lines, samples);
        std::printf("  parse only     : %8.1f MB/s, %6.1f ns/sample, %7.2f us/body\n", mbs, nsPerSample,
                    parseNs / 1e3);
        std::printf("  parse + extract: %8.1f MB/s, %6.1f ns/sample, %7.2f us/body (%zu samples read, %zu skipped)\n",
                    double(body.size()) / extractNs * 1e3, extractNs / double(samples), extractNs / 1e3,
                    xr.samplesRead, xr.samplesSkipped);
        lastMBs = mbs;
        lastNs = nsPerSample;
        lastSamples = samples;
    }
    std::printf("promparse: %.1f MB/s, %.1f ns/sample, %zu samples\n", lastMBs, lastNs, lastSamples);
    return 0;
}
