// SPDX-License-Identifier: MIT
#include "metricsexposition.h"

#include "bytewriter.h"
#include "enginestats.h"
#include "promformat.h"

#include <algorithm>
#include <utility>

namespace pd::sim {

namespace {
constexpr const char *kReasons[] = {"stop", "length", "abort", "error"};
constexpr const char *kSources[] = {"local_compute", "local_cache_hit", "external_kv_transfer"};
} // namespace

QByteArray MetricsExposition::contentType()
{
    return QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

MetricsExposition::MetricsExposition(const EngineOptions &options, const EngineStats &stats)
    : m_stats(stats), m_options(options)
{
    m_engine = QByteArray::number(options.dpRank);
    m_model = promEscapeLabel(options.model.toUtf8());
    buildDefaultCollectors();
    buildVllm(options.flavor == MetricsFlavor::Main);
    m_expectedSize = m_text.size() + qsizetype(m_values.size()) * kMaxPromNumber + 16384;
    m_layout = ExpositionLayout::shared(std::exchange(m_text, {}), std::exchange(m_valueAt, {}));
}

void MetricsExposition::text(const QByteArray &t)
{
    m_text.append(t);
}

void MetricsExposition::value(const double *v)
{
    m_valueAt.push_back(m_text.size());
    m_values.push_back(v);
}

QByteArray MetricsExposition::labels(
    std::initializer_list<std::pair<const char *, QByteArray>> extra) const
{
    std::vector<std::pair<QByteArray, QByteArray>> all;
    all.emplace_back(QByteArrayLiteral("engine"), m_engine);
    all.emplace_back(QByteArrayLiteral("model_name"), m_model);
    for (const auto &e : extra)
        all.emplace_back(QByteArray(e.first), e.second);
    std::sort(all.begin(), all.end());
    QByteArray out = "{";
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i)
            out += ',';
        out += all[i].first + "=\"" + all[i].second + '"';
    }
    out += '}';
    return out;
}

void MetricsExposition::counter(const char *name, const char *help,
                                const std::vector<std::pair<QByteArray, const double *>> &series)
{
    const QByteArray base(name);
    const QByteArray h(help);
    text("# HELP " + base + "_total " + h + "\n# TYPE " + base + "_total counter\n");
    for (const auto &[lbl, v] : series) {
        text(base + "_total" + lbl + ' ');
        value(v);
        text("\n");
    }
    text("# HELP " + base + "_created " + h + "\n# TYPE " + base + "_created gauge\n");
    for (const auto &[lbl, v] : series) {
        text(base + "_created" + lbl + ' ');
        value(&m_stats.created);
        text("\n");
    }
}

void MetricsExposition::gauge(const char *name, const char *help,
                              const std::vector<std::pair<QByteArray, const double *>> &series)
{
    const QByteArray base(name);
    text("# HELP " + base + ' ' + help + "\n# TYPE " + base + " gauge\n");
    for (const auto &[lbl, v] : series) {
        text(base + lbl + ' ');
        value(v);
        text("\n");
    }
}

void MetricsExposition::histogram(const char *name, const char *help, const Histogram &h)
{
    const QByteArray base(name);
    const QByteArray hp(help);
    text("# HELP " + base + ' ' + hp + "\n# TYPE " + base + " histogram\n");
    const auto &bounds = h.bounds();
    for (std::size_t i = 0; i <= bounds.size(); ++i) {
        const QByteArray le = i < bounds.size() ? promNumber(bounds[i]) : QByteArrayLiteral("+Inf");
        text(base + "_bucket" + labels({{"le", le}}) + ' ');
        value(&h.cumulative()[i]);
        text("\n");
    }
    const QByteArray lbl = labels({});
    text(base + "_count" + lbl + ' ');
    value(h.countPtr());
    text("\n" + base + "_sum" + lbl + ' ');
    value(h.sumPtr());
    text("\n# HELP " + base + "_created " + hp + "\n# TYPE " + base + "_created gauge\n" + base
         + "_created" + lbl + ' ');
    value(&m_stats.created);
    text("\n");
}

void MetricsExposition::buildDefaultCollectors()
{
    const auto gen = [](int g) -> QByteArray { return "{generation=\"" + QByteArray::number(g) + "\"}"; };
    const struct {
        const char *name;
        const char *help;
        const std::array<double, 3> *values;
    } gc[] = {
        {"python_gc_objects_collected_total", "Objects collected during gc", &m_stats.gcCollected},
        {"python_gc_objects_uncollectable_total", "Uncollectable objects found during GC",
         &m_stats.gcUncollectable},
        {"python_gc_collections_total", "Number of times this generation was collected",
         &m_stats.gcCollections},
    };
    for (const auto &f : gc) {
        text(QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name + " counter\n");
        for (int g = 0; g < 3; ++g) {
            text(f.name + gen(g) + ' ');
            value(&(*f.values)[std::size_t(g)]);
            text("\n");
        }
    }
    text("# HELP python_info Python platform information\n# TYPE python_info gauge\n"
         "python_info{implementation=\"CPython\",major=\"3\",minor=\"10\",patchlevel=\"17\","
         "version=\"3.10.17\"} 1.0\n");
    const struct {
        const char *name;
        const char *help;
        const char *type;
        const double *v;
    } proc[] = {
        {"process_virtual_memory_bytes", "Virtual memory size in bytes.", "gauge",
         &m_stats.processVirtual},
        {"process_resident_memory_bytes", "Resident memory size in bytes.", "gauge",
         &m_stats.processResident},
        {"process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
         "gauge", &m_stats.processStart},
        {"process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter",
         &m_stats.processCpu},
        {"process_open_fds", "Number of open file descriptors.", "gauge", &m_stats.processOpenFds},
        {"process_max_fds", "Maximum number of open file descriptors.", "gauge",
         &m_stats.processMaxFds},
    };
    for (const auto &f : proc) {
        text(QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name + ' ' + f.type
             + '\n' + f.name + ' ');
        value(f.v);
        text("\n");
    }
}

void MetricsExposition::buildVllm(bool main)
{
    const EngineStats &s = m_stats;
    const QByteArray l = labels({});
    if (!s.specAcceptedPerPos.empty()) {
        counter("vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", {{l, &s.specDrafts}});
        counter("vllm:spec_decode_num_draft_tokens", "Number of draft tokens.",
                {{l, &s.specDraftTokens}});
        counter("vllm:spec_decode_num_accepted_tokens", "Number of accepted tokens.",
                {{l, &s.specAccepted}});
        std::vector<std::pair<QByteArray, const double *>> perPos;
        for (std::size_t i = 0; i < s.specAcceptedPerPos.size(); ++i)
            perPos.emplace_back(labels({{"position", QByteArray::number(qulonglong(i))}}),
                                &s.specAcceptedPerPos[i]);
        counter("vllm:spec_decode_num_accepted_tokens_per_pos",
                "Accepted tokens per draft position.", perPos);
    }
    if (main) {
        histogram("vllm:nixl_xfer_time_seconds",
                  "Histogram of transfer duration for NIXL KV Cache transfers.", s.nixlXferTime);
        histogram("vllm:nixl_post_time_seconds",
                  "Histogram of transfer post time for NIXL KV Cache transfers.", s.nixlPostTime);
        histogram("vllm:nixl_bytes_transferred",
                  "Histogram of bytes transferred per NIXL KV Cache transfers.", s.nixlBytes);
        histogram("vllm:nixl_num_descriptors",
                  "Histogram of number of descriptors per NIXL  KV Cache transfers.",
                  s.nixlDescriptors);
        counter("vllm:nixl_num_failed_transfers", "Number of failed NIXL KV Cache transfers.",
                {{l, &s.nixlFailedTransfers}});
        counter("vllm:nixl_num_failed_notifications",
                "Number of failed NIXL KV Cache notifications.", {{l, &s.nixlFailedNotifications}});
        counter("vllm:nixl_num_kv_expired_reqs",
                "Number of requests that had their KV expire. NOTE: This metric is tracked on the P "
                "instance.",
                {{l, &s.nixlExpired}});
    }
    gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
          {{l, &s.running}});
    gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
          {{l, &s.waiting}});
    if (main) {
        gauge("vllm:num_requests_waiting_by_reason",
              "Number of waiting requests by reason. Reason labels: 'capacity' = waiting for "
              "scheduling capacity; 'deferred' = deferred by transient constraints (LoRA budget, KV "
              "transfer, blocked status). Sum of all reasons equals vllm:num_requests_waiting.",
              {{labels({{"reason", "capacity"}}), &s.waitingCapacity},
               {labels({{"reason", "deferred"}}), &s.waitingDeferred}});
        gauge("vllm:engine_sleep_state",
              "Engine sleep state; awake = 0 means engine is sleeping; awake = 1 means engine is "
              "awake; weights_offloaded = 1 means sleep level 1; discard_all = 1 means sleep level 2.",
              {{labels({{"sleep_state", "awake"}}), &s.one},
               {labels({{"sleep_state", "weights_offloaded"}}), &s.zero},
               {labels({{"sleep_state", "discard_all"}}), &s.zero}});
        gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.",
              {{l, &s.kvUsage}});
        counter("vllm:prefix_cache_queries",
                "Prefix cache queries, in terms of number of queried tokens.", {{l, &s.prefixQueries}});
        counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.",
                {{l, &s.prefixHits}});
        counter("vllm:external_prefix_cache_queries",
                "External prefix cache queries from KV connector cross-instance cache sharing, in "
                "terms of number of queried tokens.",
                {{l, &s.externalQueries}});
        counter("vllm:external_prefix_cache_hits",
                "External prefix cache hits from KV connector cross-instance cache sharing, in terms "
                "of number of cached tokens.",
                {{l, &s.externalHits}});
        counter("vllm:mm_cache_queries",
                "Multi-modal cache queries, in terms of number of queried items.", {{l, &s.mmQueries}});
        counter("vllm:mm_cache_hits", "Multi-modal cache hits, in terms of number of cached items.",
                {{l, &s.mmHits}});
    } else {
        gauge("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.",
              {{l, &s.kvUsage}});
        counter("vllm:gpu_prefix_cache_queries",
                "GPU prefix cache queries, in terms of number of queried tokens.",
                {{l, &s.prefixQueries}});
        counter("vllm:gpu_prefix_cache_hits",
                "GPU prefix cache hits, in terms of number of cached tokens.", {{l, &s.prefixHits}});
    }
    counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.",
            {{l, &s.preemptions}});
    counter("vllm:prompt_tokens", "Number of prefill tokens processed.", {{l, &s.promptTokens}});
    if (main) {
        std::vector<std::pair<QByteArray, const double *>> bySource;
        for (std::size_t i = 0; i < 3; ++i)
            bySource.emplace_back(labels({{"source", kSources[i]}}), &s.promptBySource[i]);
        counter("vllm:prompt_tokens_by_source", "Number of prompt tokens by source.", bySource);
        counter("vllm:prompt_tokens_cached", "Number of cached prompt tokens (local + external).",
                {{l, &s.promptCached}});
    }
    counter("vllm:generation_tokens", "Number of generation tokens processed.",
            {{l, &s.generationTokens}});
    std::vector<std::pair<QByteArray, const double *>> success;
    for (std::size_t i = 0; i < (main ? 4u : 3u); ++i)
        success.emplace_back(labels({{"finished_reason", kReasons[i]}}), &s.success[i]);
    counter("vllm:request_success", "Count of successfully processed requests.", success);
    histogram("vllm:request_prompt_tokens", "Number of prefill tokens processed.",
              s.requestPromptTokens);
    histogram("vllm:request_generation_tokens", "Number of generation tokens processed.",
              s.requestGenerationTokens);
    histogram("vllm:iteration_tokens_total", "Histogram of number of tokens per engine_step.",
              s.iterationTokens);
    histogram("vllm:request_max_num_generation_tokens",
              "Histogram of maximum number of requested generation tokens.", s.requestMaxGenTokens);
    histogram("vllm:request_params_n", "Histogram of the n request parameter.", s.requestParamsN);
    histogram("vllm:request_params_max_tokens", "Histogram of the max_tokens request parameter.",
              s.requestParamsMaxTokens);
    histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
              s.ttft);
    if (main) {
        histogram("vllm:inter_token_latency_seconds",
                  "Histogram of inter-token latency in seconds.", s.tpot);
        histogram("vllm:request_time_per_output_token_seconds",
                  "Histogram of time_per_output_token_seconds per request.", s.requestTpot);
    } else {
        histogram("vllm:time_per_output_token_seconds",
                  "Histogram of time per output token in seconds.", s.tpot);
    }
    histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.",
              s.e2e);
    histogram("vllm:request_queue_time_seconds",
              "Histogram of time spent in WAITING phase for request.", s.queueTime);
    histogram("vllm:request_inference_time_seconds",
              "Histogram of time spent in RUNNING phase for request.", s.inferenceTime);
    histogram("vllm:request_prefill_time_seconds",
              "Histogram of time spent in PREFILL phase for request.", s.prefillTime);
    histogram("vllm:request_decode_time_seconds",
              "Histogram of time spent in DECODE phase for request.", s.decodeTime);
    if (main)
        histogram("vllm:request_prefill_kv_computed_tokens",
                  "Histogram of new KV tokens computed during prefill (excluding cached tokens).",
                  s.prefillKvComputed);

    buildCacheConfigInfo(main);
}

// vllm:cache_config_info: the engine's cache configuration as labels of a constant 1 (each generation its own labels).
void MetricsExposition::buildCacheConfigInfo(bool main)
{
    const int blocks = m_options.effectiveNumGpuBlocks();
    const QByteArray nb = QByteArray::number(blocks);
    const QByteArray bs = QByteArray::number(m_options.blockSize);
    text("# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig\n"
         "# TYPE vllm:cache_config_info gauge\n");
    if (main) {
        const qint64 sizeTokens = qint64(blocks) * m_options.blockSize;
        const QByteArray concurrency =
            QByteArray::number(double(sizeTokens) / std::max(1, m_options.maxModelLen), 'f', 2);
        text("vllm:cache_config_info{_block_size_resolved=\"True\",block_size=\"" + bs
             + "\",cache_dtype=\"auto\",calculate_kv_scales=\"False\",cpu_offload_gb=\"0.0\","
               "enable_prefix_caching=\"True\",engine=\""
             + m_engine
             + "\",gpu_memory_utilization=\"0.9\",is_attention_free=\"False\","
               "kv_cache_dtype_skip_layers=\"[]\",kv_cache_max_concurrency=\""
             + concurrency + "\",kv_cache_memory_bytes=\"None\",kv_cache_size_tokens=\""
             + QByteArray::number(sizeTokens)
             + "\",kv_offloading_backend=\"native\",kv_offloading_size=\"None\","
               "kv_sharing_fast_prefill=\"False\",mamba_block_size=\"None\",mamba_cache_dtype="
               "\"auto\",mamba_cache_mode=\"none\",mamba_page_size_padded=\"None\","
               "mamba_ssm_cache_dtype=\"auto\",num_cpu_blocks=\"None\",num_gpu_blocks=\""
             + nb
             + "\",num_gpu_blocks_override=\"None\",prefix_caching_hash_algo=\"sha256\","
               "sliding_window=\"None\"} 1.0\n");
    } else {
        text("vllm:cache_config_info{block_size=\"" + bs
             + "\",cache_dtype=\"auto\",calculate_kv_scales=\"False\",cpu_offload_gb=\"0\","
               "enable_prefix_caching=\"True\",engine=\""
             + m_engine
             + "\",gpu_memory_utilization=\"0.9\",is_attention_free=\"False\",num_cpu_blocks="
               "\"None\",num_gpu_blocks=\""
             + nb
             + "\",num_gpu_blocks_override=\"None\",prefix_caching_hash_algo=\"builtin\","
               "sliding_window=\"None\",swap_space=\"4\",swap_space_bytes=\"4294967296\"} 1.0\n");
    }
}

// The HTTP families: their series appear on first use, so they are written out each time (a few
// hundred bytes per series), straight into the answer.
void MetricsExposition::renderHttp(ByteWriter &w) const
{
    const EngineStats &s = m_stats;
    const auto family = [&w](QByteArrayView name, QByteArrayView help, QByteArrayView type) {
        w.append("# HELP ");
        w.append(name);
        w.append(' ');
        w.append(help);
        w.append("\n# TYPE ");
        w.append(name);
        w.append(' ');
        w.append(type);
        w.append('\n');
    };
    const auto sample = [&w](double v) {
        w.append("\"} ");
        w.number(v);
        w.append('\n');
    };
    if (!s.httpRequests.empty()) {
        const QByteArrayView help = "Total number of requests by method, status and handler.";
        for (const bool created : { false, true }) {
            const QByteArrayView name = created ? "http_requests_created" : "http_requests_total";
            family(name, help, created ? "gauge" : "counter");
            for (const HttpSeries &r : s.httpRequests) {
                w.append(name);
                w.append("{handler=\"");
                w.append(r.handler);
                w.append("\",method=\"");
                w.append(r.method);
                w.append("\",status=\"");
                w.append(r.status);
                sample(created ? r.created : r.requests);
            }
        }
    }
    const auto summary = [&](QByteArrayView name, QByteArrayView created, QByteArrayView help, bool request) {
        if (s.httpHandlers.empty())
            return;
        family(name, help, "summary");
        for (const HttpHandlerStats &h : s.httpHandlers) {
            w.append(name);
            w.append("_count{handler=\"");
            w.append(h.handler);
            sample(request ? h.requestSizeCount : h.responseSizeCount);
            w.append(name);
            w.append("_sum{handler=\"");
            w.append(h.handler);
            sample(request ? h.requestSizeSum : h.responseSizeSum);
        }
        family(created, help, "gauge");
        for (const HttpHandlerStats &h : s.httpHandlers) {
            w.append(created);
            w.append("{handler=\"");
            w.append(h.handler);
            sample(h.created);
        }
    };
    summary("http_request_size_bytes", "http_request_size_bytes_created",
        "Content length of incoming requests by handler. Only value of header is respected. "
        "Otherwise ignored. No percentile calculated. ",
        true);
    summary("http_response_size_bytes", "http_response_size_bytes_created",
        "Content length of outgoing responses by handler. Only value of header is respected. "
        "Otherwise ignored. No percentile calculated. ",
        false);
    const QByteArrayView highrHelp = "Latency with many buckets but no API specific labels. Made for more "
                                     "accurate percentile calculations. ";
    family("http_request_duration_highr_seconds", highrHelp, "histogram");
    const auto &hb = s.httpHighr.bounds();
    for (std::size_t i = 0; i <= hb.size(); ++i) {
        w.append("http_request_duration_highr_seconds_bucket{le=\"");
        if (i < hb.size())
            w.number(hb[i]);
        else
            w.append("+Inf");
        sample(s.httpHighr.cumulative()[i]);
    }
    w.append("http_request_duration_highr_seconds_count ");
    w.number(s.httpHighr.count());
    w.append("\nhttp_request_duration_highr_seconds_sum ");
    w.number(s.httpHighr.sum());
    w.append('\n');
    family("http_request_duration_highr_seconds_created", highrHelp, "gauge");
    w.append("http_request_duration_highr_seconds_created ");
    w.number(s.httpHighrCreated);
    w.append('\n');
    if (s.httpHandlers.empty())
        return;
    const QByteArrayView durHelp = "Latency with only few buckets by handler. Made to be only used if "
                                   "aggregation by handler is important. ";
    family("http_request_duration_seconds", durHelp, "histogram");
    const auto handlerAndMethod = [&w](QByteArrayView series, const HttpHandlerStats &h) {
        w.append(series);
        w.append("{handler=\"");
        w.append(h.handler);
        w.append("\",method=\"");
        w.append(h.method);
    };
    for (const HttpHandlerStats &h : s.httpHandlers) {
        const auto &b = h.duration.bounds();
        for (std::size_t i = 0; i <= b.size(); ++i) {
            w.append("http_request_duration_seconds_bucket{handler=\"");
            w.append(h.handler);
            w.append("\",le=\"");
            if (i < b.size())
                w.number(b[i]);
            else
                w.append("+Inf");
            w.append("\",method=\"");
            w.append(h.method);
            sample(h.duration.cumulative()[i]);
        }
        handlerAndMethod("http_request_duration_seconds_count", h);
        sample(h.duration.count());
        handlerAndMethod("http_request_duration_seconds_sum", h);
        sample(h.duration.sum());
    }
    family("http_request_duration_seconds_created", durHelp, "gauge");
    for (const HttpHandlerStats &h : s.httpHandlers) {
        handlerAndMethod("http_request_duration_seconds_created", h);
        sample(h.created);
    }
}

// A walk over the precomputed text: each fixed stretch one memcpy, each value formatted in place.
void MetricsExposition::renderInto(QByteArray &out) const
{
    ByteWriter w(out, m_expectedSize);
    // The `_created` samples (one for every series of a vLLM family) all print the same timestamp,
    // the costliest number to format: formatted once.
    char created[kMaxPromNumber];
    const int createdLength = formatPromNumber(m_stats.created, created);
    const ExpositionLayout &layout = *m_layout;
    const char *text = layout.text.constData();
    qsizetype pos = 0;
    for (std::size_t i = 0; i < m_values.size(); ++i) {
        const qsizetype at = layout.valueAt[i];
        w.append(text + pos, at - pos);
        pos = at;
        if (m_values[i] == &m_stats.created)
            w.append(created, createdLength);
        else
            w.number(*m_values[i]);
    }
    w.append(text + pos, layout.text.size() - pos);
    renderHttp(w);
}

QByteArray MetricsExposition::render() const
{
    QByteArray out;
    renderInto(out);
    return out;
}

// What a label-cardinality runaway adds to an exposition (a request id or adapter name used as a label):
// ~6 MiB of valid samples, one series each, past the 4 MiB a poller reads of one answer.
QByteArray cardinalityRunaway(int dpRank)
{
    constexpr int kSeries = 60000;
    QByteArray extra;
    extra.reserve(kSeries * 110);
    extra += "# HELP vllm:lora_requests_info Running stats on lora requests.\n# TYPE vllm:lora_requests_info gauge\n";
    const QByteArray engine = QByteArray::number(dpRank);
    for (int i = 0; i < kSeries; ++i)
        extra += "vllm:lora_requests_info{engine=\"" + engine + "\",max_lora=\"64\",running_lora_adapters=\"adapter-"
            + QByteArray::number(i) + "\",waiting_lora_adapters=\"\"} 1.7e+09\n";
    return extra;
}

} // namespace pd::sim
