// SPDX-License-Identifier: MIT
#include "simlog/vllmlogtext.h"

#include <cstdio>
#include <ctime>

namespace pd::sim {

namespace {

// Where vllm-ascend images keep their Python packages.
constexpr const char *kSite = "/usr/local/python3.10.17/lib/python3.10/site-packages/";

QByteArray stamp(qint64 now)
{
    const std::time_t seconds = std::time_t(now / 1000);
    std::tm tm = {};
    localtime_r(&seconds, &tm);
    char text[32];
    const int n = std::snprintf(
        text, sizeof text, "%02d-%02d %02d:%02d:%02d", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return QByteArray(text, n);
}

// CANN's own stamp in its error texts: 2025-12-01-18:53:05.123.456
QByteArray cannStamp(qint64 now)
{
    const std::time_t seconds = std::time_t(now / 1000);
    std::tm tm = {};
    localtime_r(&seconds, &tm);
    char text[48];
    const int n = std::snprintf(text, sizeof text, "%04d-%02d-%02d-%02d:%02d:%02d.%03d.%03d", tm.tm_year + 1900,
        tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, int(now % 1000), int((now * 7) % 1000));
    return QByteArray(text, n);
}

QByteArray number(double v, int decimals)
{
    return QByteArray::number(v, 'f', decimals);
}

// 300032 -> "300,032", as Python's "{:,}".
QByteArray grouped(qint64 v)
{
    QByteArray digits = QByteArray::number(v);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, ',');
    return digits;
}

QByteArray file(const char *relative)
{
    return QByteArray("  File \"") + kSite + relative;
}

} // namespace

VllmLogText::VllmLogText(MetricsFlavor flavor, qint64 pid, int dpRank)
    : m_flavor(flavor)
    , m_pid(pid)
    , m_dpRank(dpRank)
{
}

QByteArray VllmLogText::prefix(Process process) const
{
    if (m_flavor != MetricsFlavor::Main)
        return {};
    if (process == Process::ApiServer)
        return "(APIServer pid=" + QByteArray::number(m_pid) + ") ";
    return "(EngineCore_DP" + QByteArray::number(m_dpRank) + " pid=" + QByteArray::number(m_pid) + ") ";
}

QByteArray VllmLogText::line(
    const char *level, Process process, const char *where, const QByteArray &message, qint64 now) const
{
    QByteArray out = prefix(process);
    out.reserve(out.size() + 40 + message.size());
    out += level;
    out += ' ';
    out += stamp(now);
    out += " [";
    out += where;
    out += "] ";
    out += message;
    return out;
}

QByteArray VllmLogText::uvicorn(const char *level, const QByteArray &message) const
{
    // uvicorn's "%(levelprefix)s %(message)s": the level, a colon, padded to 8 columns, then a space.
    QByteArray out = prefix(Process::ApiServer);
    QByteArray head = QByteArray(level) + ':';
    out += head.leftJustified(9, ' ');
    out += ' ';
    out += message;
    return out;
}

void VllmLogText::traceback(QList<QByteArray> &out, Process process, const char *where, qint64 now,
    std::initializer_list<const char *> frames) const
{
    // vLLM logs a traceback through logger.exception: every line carries the logger's prefix.
    out << line("ERROR", process, where, "Traceback (most recent call last):", now);
    bool fileLine = true;
    for (const char *f : frames) {
        out << line("ERROR", process, where, fileLine ? file(f) : QByteArray("    ") + f, now);
        fileLine = !fileLine;
    }
}

QList<QByteArray> VllmLogText::startBegin(const VllmStartupFacts &f, qint64 now) const
{
    const bool main = m_flavor == MetricsFlavor::Main;
    const Process api = Process::ApiServer;
    const QByteArray version = main ? "0.11.0" : "0.9.1";
    const QByteArray path = f.modelPath.isEmpty() ? f.model : f.modelPath;
    QList<QByteArray> out;
    out << line("INFO", api, "__init__.py:39", "Available plugins for group vllm.platform_plugins:", now)
        << line("INFO", api, "__init__.py:41", "- ascend -> vllm_ascend:register", now)
        << line("INFO", api, "__init__.py:44",
               "All plugins in this group will be loaded. Set `VLLM_PLUGINS` to control which plugins to load.", now)
        << line("INFO", api, "__init__.py:235", "Platform plugin ascend is activated", now)
        << line("INFO", api, main ? "api_server.py:1870" : "api_server.py:1287", "vLLM API server version " + version,
               now);
    QByteArray args = "non-default args: {'host': '" + f.host + "', 'port': " + QByteArray::number(f.port)
        + ", 'model': '" + path + "', 'trust_remote_code': True, 'max_model_len': " + QByteArray::number(f.maxModelLen)
        + ", 'quantization': 'ascend', 'served_model_name': ['" + f.model
        + "'], 'gpu_memory_utilization': 0.9, "
          "'max_num_batched_tokens': "
        + QByteArray::number(f.maxBatchedTokens) + ", 'max_num_seqs': " + QByteArray::number(f.maxNumSeqs)
        + ", 'kv_transfer_config': KVTransferConfig(kv_connector='MooncakeConnectorV1', kv_role='"
        + (f.role == EngineRole::Prefill ? "kv_producer" : "kv_consumer") + "')}";
    out << line("INFO", api, main ? "utils.py:328" : "cli_args.py:309", args, now)
        << line("INFO", api, "config.py:823",
               "This model supports multiple tasks: {'generate', 'embed', 'classify', 'reward', 'score'}. "
               "Defaulting to 'generate'.",
               now)
        << line("INFO", api, "config.py:2195",
               "Chunked prefill is enabled with max_num_batched_tokens=" + QByteArray::number(f.maxBatchedTokens) + '.',
               now);
    const Process core = Process::EngineCore;
    out << line("INFO", core, "core.py:455", "Waiting for init message from front-end.", now)
        << line("INFO", core, "core.py:70",
               "Initializing a V1 LLM engine (v" + version + ") with config: model='" + path
                   + "', speculative_config=SpeculativeConfig(method='deepseek_mtp', model='" + path
                   + "', num_spec_tokens=" + QByteArray::number(f.speculativeTokens) + "), tokenizer='" + path
                   + "', skip_tokenizer_init=False, tokenizer_mode=auto, trust_remote_code=True, dtype=torch.bfloat16, "
                     "max_seq_len="
                   + QByteArray::number(f.maxModelLen) + ", quantization=ascend, device_config=npu, served_model_name="
                   + f.model + ", enable_prefix_caching=True, chunked_prefill_enabled=True",
               now)
        << line("INFO", core, "parallel_state.py:1065",
               "rank 0 in world size 1 is assigned as DP rank " + QByteArray::number(m_dpRank)
                   + ", PP rank 0, TP rank 0, EP rank 0",
               now)
        << line("INFO", core, "model_runner_v1.py:1722", "Starting to load model " + path + "...", now);
    return out;
}

QList<QByteArray> VllmLogText::startListening(const VllmStartupFacts &f, qint64 now) const
{
    const bool main = m_flavor == MetricsFlavor::Main;
    const Process core = Process::EngineCore;
    const Process api = Process::ApiServer;
    const qint64 tokens = qint64(f.numGpuBlocks) * f.blockSize;
    const double concurrency = f.maxModelLen > 0 ? double(tokens) / f.maxModelLen : 0.0;
    QList<QByteArray> out;
    out << line("INFO", core, "default_loader.py:272",
        "Loading weights took " + number(f.loadSeconds * 0.55, 2) + " seconds", now)
        << line("INFO", core, "model_runner_v1.py:1745", "Loading model weights took 41.2510 GB", now)
        << line("INFO", core, "kv_cache_utils.py:716", "GPU KV cache size: " + grouped(tokens) + " tokens", now)
        << line("INFO", core, "kv_cache_utils.py:720",
               "Maximum concurrency for " + grouped(f.maxModelLen) + " tokens per request: " + number(concurrency, 2)
                   + 'x',
               now)
        << line("INFO", core, "core.py:171",
               "init engine (profile, create kv cache, warmup model) took " + number(f.loadSeconds, 2) + " seconds",
               now)
        << line("INFO", api, main ? "loggers.py:142" : "loggers.py:137",
               "Engine " + QByteArray::number(m_dpRank).rightJustified(3, '0')
                   + ": vllm cache_config_info with initialization after num_gpu_blocks is: "
                   + QByteArray::number(f.numGpuBlocks),
               now);
    const QByteArray url = "http://" + f.host + ':' + QByteArray::number(f.port);
    out << line("INFO", api, main ? "api_server.py:1912" : "api_server.py:1349",
        QByteArray(main ? "Starting vLLM API server 0 on " : "Starting vLLM API server on ") + url, now);
    out << line("INFO", api, main ? "launcher.py:34" : "launcher.py:29", "Available routes are:", now);
    static const char *const routes[] = { "/openapi.json, Methods: HEAD, GET", "/docs, Methods: HEAD, GET",
        "/health, Methods: GET", "/load, Methods: GET", "/ping, Methods: POST", "/ping, Methods: GET",
        "/tokenize, Methods: POST", "/detokenize, Methods: POST", "/v1/models, Methods: GET", "/version, Methods: GET",
        "/v1/chat/completions, Methods: POST", "/v1/completions, Methods: POST", "/metrics, Methods: GET" };
    for (const char *r : routes)
        out << line("INFO", api, main ? "launcher.py:42" : "launcher.py:37", QByteArray("Route: ") + r, now);
    out << uvicorn("INFO", "Started server process [" + QByteArray::number(m_pid) + ']')
        << uvicorn("INFO", "Waiting for application startup.") << uvicorn("INFO", "Application startup complete.");
    return out;
}

QByteArray VllmLogText::access(
    QByteArrayView peer, QByteArrayView method, QByteArrayView target, int status, QByteArrayView reason) const
{
    QByteArray message;
    message.reserve(peer.size() + method.size() + target.size() + 40);
    message += peer;
    message += " - \"";
    message += method;
    message += ' ';
    message += target;
    message += " HTTP/1.1\" ";
    message += QByteArray::number(status);
    message += ' ';
    message += reason;
    return uvicorn("INFO", message);
}

QList<QByteArray> VllmLogText::stats(const VllmStatsInterval &s, qint64 now) const
{
    const bool main = m_flavor == MetricsFlavor::Main;
    const Process api = Process::ApiServer;
    QList<QByteArray> out;
    out << line("INFO", api, main ? "loggers.py:271" : "loggers.py:118",
        "Engine " + QByteArray::number(m_dpRank).rightJustified(3, '0')
            + ": Avg prompt throughput: " + number(s.promptThroughput, 1) + " tokens/s, Avg generation throughput: "
            + number(s.generationThroughput, 1) + " tokens/s, Running: " + QByteArray::number(s.running)
            + " reqs, Waiting: " + QByteArray::number(s.waiting) + " reqs, GPU KV cache usage: "
            + number(s.kvUsage * 100.0, 1) + "%, Prefix cache hit rate: " + number(s.prefixHitRate * 100.0, 1) + '%',
        now);
    if (s.draftTokens > 0) {
        const double rate = s.accepted / s.draftTokens;
        const double meanLength = s.drafts > 0 ? 1.0 + s.accepted / s.drafts : 1.0;
        const QByteArray perPosition = number(rate, 3);
        if (main) {
            out << line("INFO", api, "metrics.py:101",
                "SpecDecoding metrics: Mean acceptance length: " + number(meanLength, 2)
                    + ", Accepted throughput: " + number(s.accepted / s.seconds, 2)
                    + " tokens/s, Drafted throughput: " + number(s.draftTokens / s.seconds, 2)
                    + " tokens/s, Accepted: " + QByteArray::number(qint64(s.accepted)) + " tokens, Drafted: "
                    + QByteArray::number(qint64(s.draftTokens)) + " tokens, Per-position acceptance rate: "
                    + perPosition + ", Avg Draft acceptance rate: " + number(rate * 100.0, 1) + '%',
                now);
        } else {
            out << line("INFO", api, "metrics.py:82",
                "SpecDecoding metrics: Draft acceptance rate: " + number(rate * 100.0, 1)
                    + "%, Mean acceptance length: " + number(meanLength, 2)
                    + ", Accepted: " + QByteArray::number(qint64(s.accepted))
                    + " tokens, Drafted: " + QByteArray::number(qint64(s.draftTokens))
                    + " tokens, Per-position acceptance rate: " + perPosition,
                now);
        }
    }
    return out;
}

QByteArray VllmLogText::coreError(const QByteArray &message, qint64 now) const
{
    return line("ERROR", Process::EngineCore, kCoreErrorWhere, message, now);
}

void VllmLogText::coreTraceback(QList<QByteArray> &out, qint64 now, std::initializer_list<const char *> frames) const
{
    traceback(out, Process::EngineCore, kCoreErrorWhere, now, frames);
}

QByteArray VllmLogText::outputHandlerError(const QByteArray &message, qint64 now) const
{
    return line("ERROR", Process::ApiServer, kOutputHandlerWhere, message, now);
}

void VllmLogText::outputHandlerTraceback(
    QList<QByteArray> &out, qint64 now, std::initializer_list<const char *> frames) const
{
    traceback(out, Process::ApiServer, kOutputHandlerWhere, now, frames);
}

QList<QByteArray> VllmLogText::crash(qint64 now) const
{
    // A device task failure during a forward step (signature #24), the EngineCore dies, the front end
    // sees it dead, and the process aborts (pdsim engine exits 134).
    const QByteArray pid = QByteArray::number(m_pid);
    QList<QByteArray> out;
    out << coreError("EngineCore encountered a fatal error.", now);
    coreTraceback(out, now,
        { "vllm/v1/engine/core.py\", line 508, in run_engine_core", "engine_core.run_busy_loop()",
            "vllm/v1/engine/core.py\", line 535, in run_busy_loop", "self._process_engine_step()",
            "vllm/v1/engine/core.py\", line 560, in _process_engine_step", "outputs = self.step_fn()",
            "vllm/v1/engine/core.py\", line 231, in step", "model_output = self.execute_model(scheduler_output)",
            "vllm_ascend/worker/model_runner_v1.py\", line 1301, in execute_model",
            "hidden_states = self._process_reqs(scheduler_output, intermediate_tensors)" });
    out << coreError("RuntimeError: ACL stream synchronize failed, error code:507035", now)
        << coreError("[ERROR] " + cannStamp(now) + " (PID:" + pid + ", Device:" + QByteArray::number(m_dpRank % 16)
                   + ", RankID:-1) ERR00100 PTA call acl api failed",
               now)
        << coreError("EZ9999: Inner Error!", now)
        << coreError("EZ9999: [PID: " + pid + "] " + cannStamp(now)
                   + " The error from device(chipId:" + QByteArray::number(m_dpRank % 16)
                   + ", dieId:0), serial number is 7, there is an fftsplus aicore error exception, core id is 12, "
                     "error code = 0x800000",
               now);
    out << outputHandlerError("AsyncLLM output_handler failed.", now);
    outputHandlerTraceback(out, now,
        { "vllm/v1/engine/async_llm.py\", line 379, in output_handler",
            "outputs = await engine_core.get_output_async()",
            "vllm/v1/engine/core_client.py\", line 790, in get_output_async",
            "raise self._format_exception(outputs) from None" });
    out << outputHandlerError(
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) "
        "for the root cause.",
        now)
        << QByteArray("Fatal Python error: Aborted");
    return out;
}

QList<QByteArray> VllmLogText::engineDead(qint64 now) const
{
    // The RDMA path to a peer failed under a collective (signature #15); the EngineCore died and the
    // API server stays up answering 500 (0.9.1: /health 500 too).
    const QByteArray pid = QByteArray::number(m_pid);
    const QByteArray device = QByteArray::number(m_dpRank % 16);
    QList<QByteArray> out;
    out << coreError("EngineCore encountered a fatal error.", now);
    coreTraceback(out, now,
        { "vllm/v1/engine/core.py\", line 508, in run_engine_core", "engine_core.run_busy_loop()",
            "vllm/v1/engine/core.py\", line 231, in step", "model_output = self.execute_model(scheduler_output)",
            "vllm_ascend/distributed/communicator.py\", line 66, in all_reduce",
            "dist.all_reduce(x, group=self.device_group)" });
    out << coreError("RuntimeError: HCCL function error: HcclAllReduce(...), error code is 21", now)
        << coreError("[ERROR] HCCL(" + pid + ",python):" + cannStamp(now) + " [transport_roce.cc:622][" + pid
                   + "]error CQE occurred, status[12], localIpAddr[29.1.1." + device + "], remote_ip_addr[29.1.2."
                   + device + ']',
               now)
        << coreError("EI0013: " + cannStamp(now) + " An RDMA completion error occurred between device " + device
                   + " and its peer: the NIC port flapped or the peer process exited.",
               now);
    out << outputHandlerError("AsyncLLM output_handler failed.", now);
    outputHandlerTraceback(out, now,
        { "vllm/v1/engine/async_llm.py\", line 379, in output_handler",
            "outputs = await engine_core.get_output_async()" });
    out << outputHandlerError(
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for "
        "the root cause.",
        now);
    return out;
}

QList<QByteArray> VllmLogText::execTimeout(qint64 now, int timeoutSeconds) const
{
    // A collective that never completes: after HCCL_EXEC_TIMEOUT the Notify wait times out (#14).
    const QByteArray pid = QByteArray::number(m_pid);
    QList<QByteArray> out;
    out << coreError("EngineCore encountered a fatal error.", now);
    coreTraceback(out, now,
        { "vllm/v1/engine/core.py\", line 231, in step", "model_output = self.execute_model(scheduler_output)",
            "vllm_ascend/worker/model_runner_v1.py\", line 1301, in execute_model",
            "hidden_states = self._process_reqs(scheduler_output, intermediate_tensors)" });
    out << coreError(
        "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the "
        "current working operator name is HcclAllreduce.",
        now)
        << coreError("EI0002: [PID: " + pid + "] " + cannStamp(now)
                   + " The wait execution of the Notify register times out. Reason: A timeout occurs when the Notify "
                     "register waits for the signal (HCCL_EXEC_TIMEOUT "
                   + QByteArray::number(timeoutSeconds) + " s).",
               now)
        << coreError("[ERROR] HCCL(" + pid + ",python):" + cannStamp(now)
                   + " HCCL watchdog thread terminated with exception: the collective on rank "
                   + QByteArray::number(m_dpRank) + " did not finish",
               now);
    return out;
}

QList<QByteArray> VllmLogText::dpJoinTimeout(
    qint64 now, int timeoutSeconds, int joined, int size, QByteArrayView master) const
{
    // The engine core waits in the DP group's rendezvous (a TCP store at the DP master) before it loads
    // the model; when the other ranks never come, the store gives up and start-up fails.
    const Process core = Process::EngineCore;
    const char *where = "core.py:663";
    QList<QByteArray> out;
    out << line("ERROR", core, where, "EngineCore failed to start.", now);
    traceback(out, core, where, now,
        { "vllm/v1/engine/core.py\", line 654, in run_engine_core", "engine_core = DPEngineCoreProc(*args, **kwargs)",
            "vllm/v1/engine/core.py\", line 906, in _init_data_parallel",
            "self.dp_group = vllm_config.parallel_config.stateless_init_dp_group()",
            "vllm/distributed/utils.py\", line 301, in stateless_init_torch_distributed_process_group",
            "store = TCPStore(host_name=host, port=port, world_size=world_size, is_master=(rank == 0))" });
    out << line("ERROR", core, where,
        "torch.distributed.DistStoreError: Timed out after " + QByteArray::number(timeoutSeconds)
            + " seconds waiting for the data parallel group at " + master.toByteArray() + " to form: "
            + QByteArray::number(joined) + " of " + QByteArray::number(size) + " ranks joined",
        now);
    out << line("ERROR", Process::ApiServer, "api_server.py:1389",
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}", now);
    return out;
}

QList<QByteArray> VllmLogText::dpWatchdogTimeout(
    qint64 now, qint64 seqNum, qint64 timeoutMs, qint64 ranMs, int deadRank) const
{
    // A survivor of a DP group whose peer died: its next collective never completes. HCCL reports the
    // peer that stopped sending, the process group's watchdog gives up after its timeout and takes the
    // process down.
    const QByteArray pid = QByteArray::number(m_pid);
    QList<QByteArray> out;
    out << coreError("EI0006: [PID: " + pid + "] " + cannStamp(now)
            + " Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the "
              "reason for the rank being stuck (remote DP rank "
            + QByteArray::number(deadRank) + ", local DP rank " + QByteArray::number(m_dpRank) + ")",
        now)
        << coreError("[Rank " + QByteArray::number(m_dpRank)
                   + "] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=" + QByteArray::number(seqNum)
                   + ", OpType=ALLREDUCE, Timeout(ms)=" + QByteArray::number(timeoutMs) + ") ran for "
                   + QByteArray::number(ranMs) + " milliseconds before timing out.",
               now)
        << coreError("[ERROR] HCCL(" + pid + ",python):" + cannStamp(now)
                   + " HCCL watchdog thread terminated with exception: the collective on rank "
                   + QByteArray::number(m_dpRank) + " did not finish; the process takes itself down",
               now)
        << QByteArray("Fatal Python error: Aborted");
    return out;
}

QList<QByteArray> VllmLogText::metricsException(qint64 /*now*/) const
{
    // uvicorn's report of an application that failed after the response began: the exposition is cut.
    QList<QByteArray> out;
    out << uvicorn("ERROR", "Exception in ASGI application") << QByteArray("Traceback (most recent call last):")
        << file("uvicorn/protocols/http/httptools_impl.py\", line 409, in run_asgi")
        << QByteArray("    result = await app(  # type: ignore[func-returns-value]")
        << file("prometheus_client/asgi.py\", line 38, in prometheus_app")
        << QByteArray("    await send({\"type\": \"http.response.body\", \"body\": output})")
        << file("uvicorn/protocols/http/httptools_impl.py\", line 537, in send")
        << QByteArray("    raise RuntimeError(\"Response content shorter than Content-Length\")")
        << QByteArray("RuntimeError: Response content shorter than Content-Length");
    return out;
}

QList<QByteArray> VllmLogText::shutdownBegin(qint64 now, bool connectionsOpen) const
{
    QList<QByteArray> out;
    out << uvicorn("INFO", "Shutting down")
        << line("INFO", Process::ApiServer, m_flavor == MetricsFlavor::Main ? "launcher.py:101" : "launcher.py:80",
               "Shutting down FastAPI HTTP server.", now);
    if (connectionsOpen)
        out << uvicorn("INFO", "Waiting for connections to close. (CTRL+C to force quit)");
    return out;
}

QList<QByteArray> VllmLogText::shutdownEnd(qint64 /*now*/) const
{
    QList<QByteArray> out;
    out << uvicorn("INFO", "Waiting for application shutdown.") << uvicorn("INFO", "Application shutdown complete.")
        << uvicorn("INFO", "Finished server process [" + QByteArray::number(m_pid) + ']');
    return out;
}

} // namespace pd::sim
