// SPDX-License-Identifier: MIT
#include "ops/warmupreport.h"

#include <QStringList>

namespace pd {

namespace {

using ojson = nlohmann::ordered_json;

ojson msJson(double ms)
{
    return std::isfinite(ms) ? ojson(std::round(ms * 1000.0) / 1000.0) : ojson();
}

ojson statsJson(const LatencyStats &s)
{
    return ojson { { "count", s.count }, { "p50", msJson(s.p50) }, { "p90", msJson(s.p90) }, { "p99", msJson(s.p99) },
        { "max", msJson(s.max) } };
}

QString csvCell(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n'))
        && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvMs(double ms)
{
    return std::isfinite(ms) ? QString::number(ms, 'f', 3) : QString();
}

QString percent(double rate)
{
    return std::isfinite(rate) ? QString::number(rate * 100.0, 'f', 1) + QStringLiteral(" %") : QStringLiteral("-");
}

} // namespace

QString formatMs(double ms)
{
    if (!std::isfinite(ms))
        return QStringLiteral("-");
    return QString::number(ms, 'f', ms < 100 ? 1 : 0);
}

QString warmUpSummaryLine(const WarmUpResult &r)
{
    QStringList parts;
    parts << QStringLiteral("ok %1/%2 (%3)").arg(r.ok()).arg(r.completed()).arg(percent(r.successRate()));
    for (int k = 1; k < kWarmUpOutcomeCount; ++k)
        if (r.counts[k] > 0)
            parts << QStringLiteral("%1 %2").arg(warmUpOutcomeName(WarmUpOutcome(k))).arg(r.counts[k]);
    if (r.ttft.count > 0)
        parts << QStringLiteral("TTFT p50 %1 ms p99 %2 ms").arg(formatMs(r.ttft.p50), formatMs(r.ttft.p99));
    if (r.tpot.count > 0)
        parts << QStringLiteral("TPOT p50 %1 ms p99 %2 ms").arg(formatMs(r.tpot.p50), formatMs(r.tpot.p99));
    if (r.e2e.count > 0)
        parts << QStringLiteral("E2E p50 %1 ms").arg(formatMs(r.e2e.p50));
    parts << QStringLiteral("%1 s").arg(QString::number(double(r.durationMs) / 1000.0, 'f', 1));
    return parts.join(QStringLiteral("; "));
}

QString warmUpTable(const WarmUpResult &r)
{
    const WarmUpOptions &o = r.options;
    QString out;
    out += QStringLiteral(
        "warm-up through %1: %2 request(s), model %3 (%4), concurrency %5, prompt ~%6 tokens, max_tokens %7, %8\n")
               .arg(r.proxy)
               .arg(o.count)
               .arg(r.model.isEmpty() ? QStringLiteral("?") : r.model,
                   r.modelSource.isEmpty() ? QStringLiteral("-") : r.modelSource)
               .arg(o.concurrency)
               .arg(o.promptTokens)
               .arg(o.maxTokens)
               .arg(o.stream ? QStringLiteral("streamed") : QStringLiteral("not streamed"));
    if (!r.error.isEmpty()) {
        out += QStringLiteral("not run: %1\n").arg(r.error);
        return out;
    }
    out += QStringLiteral("sent %1, completed %2%3 in %4 s; success %5/%6 (%7)\n\n")
               .arg(r.sent())
               .arg(r.completed())
               .arg(r.cancelled ? QStringLiteral(" (cancelled)") : QString())
               .arg(QString::number(double(r.durationMs) / 1000.0, 'f', 1))
               .arg(r.ok())
               .arg(r.completed())
               .arg(percent(r.successRate()));
    out += QStringLiteral("%1 %2  %3\n")
               .arg(QStringLiteral("OUTCOME"), -18)
               .arg(QStringLiteral("COUNT"), 6)
               .arg(QStringLiteral("EXAMPLE"));
    for (int k = 0; k < kWarmUpOutcomeCount; ++k) {
        if (k != 0 && r.counts[k] == 0)
            continue;
        out += QStringLiteral("%1 %2  %3\n")
                   .arg(warmUpOutcomeName(WarmUpOutcome(k)), -18)
                   .arg(r.counts[k], 6)
                   .arg(r.examples[k]);
    }
    out += QStringLiteral("\n%1 %2 %3 %4 %5 %6\n")
               .arg(QStringLiteral("LATENCY (ok), ms"), -18)
               .arg(QStringLiteral("N"), 6)
               .arg(QStringLiteral("P50"), 9)
               .arg(QStringLiteral("P90"), 9)
               .arg(QStringLiteral("P99"), 9)
               .arg(QStringLiteral("MAX"), 9);
    const auto row = [&out](const QString &name, const LatencyStats &s) {
        out += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                   .arg(name, -18)
                   .arg(s.count, 6)
                   .arg(formatMs(s.p50), 9)
                   .arg(formatMs(s.p90), 9)
                   .arg(formatMs(s.p99), 9)
                   .arg(formatMs(s.max), 9);
    };
    row(QStringLiteral("TTFT"), r.ttft);
    row(QStringLiteral("TPOT"), r.tpot);
    row(QStringLiteral("E2E"), r.e2e);
    if (!r.auditError.isEmpty())
        out += QStringLiteral("\nnot audited: %1\n").arg(r.auditError);
    return out;
}

QByteArray warmUpCsv(const WarmUpResult &r)
{
    QString out = QStringLiteral("index,started_ms,outcome,http_status,ttft_ms,tpot_ms,e2e_ms,tokens,chunks,detail\n");
    for (const WarmUpSample &s : r.samples) {
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,")
                   .arg(s.index + 1)
                   .arg(csvMs(s.startedMs), warmUpOutcomeName(s.outcome))
                   .arg(s.httpStatus)
                   .arg(csvMs(s.ttftMs), csvMs(s.tpotMs), csvMs(s.e2eMs))
                   .arg(s.tokens)
                   .arg(s.chunks);
        out += csvCell(s.detail) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

nlohmann::ordered_json warmUpJson(const WarmUpResult &r)
{
    const WarmUpOptions &o = r.options;
    ojson counts = ojson::object();
    ojson examples = ojson::object();
    for (int k = 0; k < kWarmUpOutcomeCount; ++k) {
        const std::string name = warmUpOutcomeName(WarmUpOutcome(k)).toStdString();
        counts[name] = r.counts[k];
        if (!r.examples[k].isEmpty())
            examples[name] = r.examples[k].toStdString();
    }
    ojson samples = ojson::array();
    for (const WarmUpSample &s : r.samples)
        samples.push_back({ { "index", s.index + 1 }, { "outcome", warmUpOutcomeName(s.outcome).toStdString() },
            { "http_status", s.httpStatus }, { "ttft_ms", msJson(s.ttftMs) }, { "tpot_ms", msJson(s.tpotMs) },
            { "e2e_ms", msJson(s.e2eMs) }, { "tokens", s.tokens }, { "detail", s.detail.toStdString() } });
    const double rate = r.successRate();
    return ojson { { "proxy", r.proxy.toStdString() }, { "model", r.model.toStdString() },
        { "model_source", r.modelSource.toStdString() },
        { "options",
            { { "count", o.count }, { "concurrency", o.concurrency }, { "prompt_tokens", o.promptTokens },
                { "max_tokens", o.maxTokens }, { "stream", o.stream }, { "timeout_ms", o.requestTimeoutMs } } },
        { "error", r.error.isEmpty() ? ojson() : ojson(r.error.toStdString()) }, { "cancelled", r.cancelled },
        { "duration_ms", r.durationMs }, { "sent", r.sent() }, { "completed", r.completed() }, { "ok", r.ok() },
        { "success_rate", std::isfinite(rate) ? ojson(rate) : ojson() }, { "counts", counts }, { "examples", examples },
        { "ttft_ms", statsJson(r.ttft) }, { "tpot_ms", statsJson(r.tpot) }, { "e2e_ms", statsJson(r.e2e) },
        { "samples", samples } };
}

} // namespace pd
