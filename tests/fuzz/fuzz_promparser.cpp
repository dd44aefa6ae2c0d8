// SPDX-License-Identifier: MIT
// libFuzzer target for the Prometheus text parser and the vLLM extractor. Pure C++: builds from
// core/metrics/promparser.cpp and metricsextractor.cpp alone (no Qt). Checks, besides ASan/UBSan:
// every error has a position inside the body, and the parser gives the same answer whatever the
// visitor skips.
#include "metricsextractor.h"
#include "promparser.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct All final : pd::PromVisitor {
    bool wantsMetadata() const override { return true; }
    void sample(const pd::PromSample &s) override
    {
        for (const pd::PromLabel &l : s.labels) {
            sink += l.name.size() + l.rawValue.size();
            if (l.escaped)
                sink += l.value().size();
        }
        double v = 0;
        pd::PromParser::parseValue(s.labels.find("le").rawValue, v);
    }
    void help(std::string_view f, std::string_view t) override { sink += f.size() + t.size(); }
    std::size_t sink = 0;
};

void check(bool ok)
{
    if (!ok)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    // An exact-size copy so ASan catches a read one byte past the end.
    std::vector<char> copy(data, data + size);
    const std::string_view body(copy.data(), copy.size());

    All all;
    const auto r = pd::PromParser::parse(body, all);
    if (!r.ok()) {
        check(r.error.line >= 1 && r.error.column >= 1 && r.error.offset <= size);
        check(std::strlen(r.error.message) > 0);
    }
    pd::EngineMetrics m;
    const auto x = pd::MetricsExtractor::extract(body, m);
    // The extractor skips lines after their names, so it may accept what the full parse rejects,
    // never the other way round.
    if (r.ok())
        check(x.ok());
    for (const auto &h : m.histograms) {
        check(h.bucketCount >= 0 && h.bucketCount <= pd::HistogramSnapshot::kMaxBuckets);
        for (int i = 1; i < h.bucketCount; ++i)
            check(h.bounds[std::size_t(i - 1)] < h.bounds[std::size_t(i)]);
    }
    double v = 0;
    pd::PromParser::parseValue(body.substr(0, 64), v);
    return 0;
}
