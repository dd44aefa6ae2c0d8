// SPDX-License-Identifier: MIT
#include "logs/logsignatures.h"

#include <QCoreApplication>

namespace pd {

namespace {

QStringList words(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *s : list)
        out.append(QString::fromUtf8(s));
    return out;
}

LogSignature sig(int id, const char *title, const char *pattern, const char *diagnosis, const char *fix,
    LogSeverity severity, std::initializer_list<const char *> anchors, bool network = false)
{
    // The operator's words are translated once, when the table is first built (after the console
    // installed its translator); the pattern and anchors stay the log's own.
    constexpr const char *kContext = "pd::LogSignatures";
    return LogSignature { id, QCoreApplication::translate(kContext, title), QString::fromUtf8(pattern),
        QCoreApplication::translate(kContext, diagnosis), QCoreApplication::translate(kContext, fix), severity,
        words(anchors), network };
}

// Memory: HBM, device allocation, the KV cache budget, quantized weights in the wrong dtype.
QList<LogSignature> memorySignatures()
{
    using S = LogSeverity;
    return {
        sig(1, QT_TRANSLATE_NOOP("pd::LogSignatures", "NPU out of memory"), R"(NPU out of memory\. Tried to allocate)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "HBM exhausted. With W8A8/W4A8 weights the usual cause is that the quantization path was not taken, so "
            "weights load as BF16."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Start with --quantization ascend for msModelSlim-quantized weights; then lower --max-model-len / "
            "--gpu-memory-utilization, PYTORCH_NPU_ALLOC_CONF=expandable_segments:True."),
            S::Critical, { "NPU out of memory. Tried to allocate" }),
        sig(2, QT_TRANSLATE_NOOP("pd::LogSignatures", "Device memory allocation failed"), R"(EL0004: .*Failed to allocate memory)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Driver-level device-memory allocation failed: NPU already used by another process/engine or budget too "
            "high."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Check the npu-smi info process table on that NPU, kill leftovers, reduce memory settings."), S::Critical,
            { "EL0004: " }),
        sig(3, QT_TRANSLATE_NOOP("pd::LogSignatures", "Negative KV cache memory"), R"(Available KV cache memory: -\d)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Model weights exceed the memory budget; KV cache size negative."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Larger TP / more NPUs, smaller --max-model-len, higher --gpu-memory-utilization, or quantized weights."),
            S::Critical, { "Available KV cache memory: -" }),
        sig(4, QT_TRANSLATE_NOOP("pd::LogSignatures", "Quantized model in float16"), R"(Tensor scale not implemented for DT_FLOAT16)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Quantized (W8A8) model running in float16; the quant-matmul op accepts only FP32/BF16/INT64/UINT64 "
            "scales."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Set \"torch_dtype\": \"bfloat16\" in the model's config.json and/or --dtype bfloat16."), S::Critical,
            { "Tensor scale not implemented for DT_FLOAT16" }),
    };
}

// HCCL and the NPU network: ports, link setup, the root, communicators, transport, TLS, the rank table,
// execution timeouts, RDMA.
QList<LogSignature> hcclSignatures()
{
    using S = LogSeverity;
    return {
        sig(5, QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL root port 60000 in use"),
            R"(HCCL function error: HcclGetRootInfo\(&hcclID\), error code is 11\b|EJ0003: .*Failed to bind the IP port|host nic listen start failed, port\[60000\])",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Host-side HCCL root port (default 60000) already bound: a second engine/stale process on the same host."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Kill the stale engine, or give each instance its own HCCL_IF_BASE_PORT / "
            "HCCL_HOST_SOCKET_PORT_RANGE=\"auto\"."),
            S::Error,
            { "HcclGetRootInfo(&hcclID), error code is 11", "EJ0003: ", "host nic listen start failed, port[60000]" }),
        sig(6, QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL host port bind failed (EI0019)"),
            R"(Communication_Error_Bind_IP_Port\(EI0019\)|EI0019: .*Failed to enable listening for the host network adapter socket)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Same as row 5 on newer CANN (message names IP and port)."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL_IF_BASE_PORT, reserve ports with sysctl -w net.ipv4.ip_local_reserved_ports=..., don't start the "
            "service twice."),
            S::Error, { "Communication_Error_Bind_IP_Port(EI0019)", "EI0019: " }),
        sig(7, QT_TRANSLATE_NOOP("pd::LogSignatures", "Device NIC port 16666 in use"),
            R"(socket type\[[01]\], listen on ip\[.*\] and specific port\[16666\] fail|EI0020)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Device-NIC port 16666 taken: two processes on one NPU (e.g. overlapping ASCEND_RT_VISIBLE_DEVICES)."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Don't share an NPU between engines, or HCCL_NPU_SOCKET_PORT_RANGE=\"auto\"."), S::Error,
            { "and specific port[16666] fail", "EI0020" }),
        sig(8, QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL link setup timeout"), R"(EI0006|Get(?:ting)? socket times? out|wait socket establish timeout)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL link setup timed out (HCCL_CONNECT_TIMEOUT, default 120 s): peer rank crashed or started late, NPU "
            "network down, IPs not in the same segment, or TLS switch inconsistent."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Find the first failing rank; on both ends run hccn_tool -link/-net_health/-ping/-tls -g; raise "
            "HCCL_CONNECT_TIMEOUT for big clusters."),
            S::Error, { "EI0006", "Get socket time", "Getting socket time", "wait socket establish timeout" }, true),
        sig(9, QT_TRANSLATE_NOOP("pd::LogSignatures", "Ranks cannot reach the HCCL root"),
            R"(topo exchange agent get socket timeout|connect server\[.* : 60000\] failed|EI0015)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Ranks cannot reach the root over the host NIC: wrong HCCL_IF_IP / HCCL_SOCKET_IFNAME (HCCL picks host "
            "NICs in dictionary order), firewall, or start skew > timeout."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Set HCCL_IF_IP=<this node's reachable host IP> and "
            "HCCL_SOCKET_IFNAME/GLOO_SOCKET_IFNAME/TP_SOCKET_IFNAME=<nic> on every node; check host ping; raise "
            "HCCL_CONNECT_TIMEOUT."),
            S::Error, { "topo exchange agent get socket timeout", "connect server[", "EI0015" }, true),
        sig(10, QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL communicator creation failed"),
            R"(HCCL function error: (?:HcclGetRootInfo|HcclCommInitRootInfo|hcclCommInitRootInfoConfig)\(.*\), error code is (\d+)|ERR02200 DIST call hccl api failed)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Communicator creation failed (createHCCLComm/create_config). 11 = TCP connect (host network/port), 9 = "
            "timeout, 1 = bad parameter/config."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Read the EI/EJ code printed next to it and apply rows 5-9/13; verify HCCL_IF_IP, ports, rank table."),
            S::Error, { "HCCL function error: ", "ERR02200 DIST call hccl api failed" }),
        sig(11, QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL transport init failed"), R"(EI0009|Transport init error.*createLink para)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Parameter-plane transport between two devices could not be created (port down, no IP, no switch link, "
            "peer not initialised)."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "hccn_tool -optical -g | grep present, -ip -g, -lldp -g on both devices."), S::Error,
            { "EI0009", "Transport init error" }, true),
        sig(12, QT_TRANSLATE_NOOP("pd::LogSignatures", "TLS switch inconsistent (EI0016)"),
            R"(Value .* for config "tls" is invalid|All ranks are consistent|EI0016)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "TLS switch differs between ranks (HDK >= 25.2.0 detects it; older ones just time out as row 8)."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "for i in {0..7}; do hccn_tool -i $i -tls -s enable 0; done on every node (or enable everywhere)."),
            S::Error, { "for config \"tls\" is invalid", "All ranks are consistent", "EI0016" }, true),
        sig(13, QT_TRANSLATE_NOOP("pd::LogSignatures", "Rank table invalid"),
            R"(EI0004|EI0014|EI0017|is not a valid real path|super_device_id\[\] is invalid|in the ranktable is inconsistent with the IP address|have same superDeviceId)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Rank table bad: path/permission, missing field (super_device_id required for version 1.2/A3), device_ip "
            "!= hccn_tool -ip -g, or duplicate SDID."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Regenerate the rank table from live hccn_tool -ip/-vnic -g and npu-smi info -t spod-info; A2 uses version "
            "1.0, A3 1.2."),
            S::Error,
            { "EI0004", "EI0014", "EI0017", "is not a valid real path", "super_device_id[] is invalid",
                "in the ranktable is inconsistent with the IP address", "have same superDeviceId" }),
        sig(14, QT_TRANSLATE_NOOP("pd::LogSignatures", "HCCL execution timeout"),
            R"(EI0002|A timeout occurs when the Notify register waits|HCCL watchdog thread terminated with exception|Watchdog caught collective operation timeout: WorkHCCL|hccl fftsplus task timeout)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Execution-phase collective timeout (HCCL_EXEC_TIMEOUT, 1800 s default): another rank died or is stuck, "
            "inconsistent ops, or packet loss."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Look for the first error on other ranks; check network; keep HCCL_CONNECT_TIMEOUT < HCCL_EXEC_TIMEOUT."),
            S::Error,
            { "EI0002", "A timeout occurs when the Notify register waits",
                "HCCL watchdog thread terminated with exception", "Watchdog caught collective operation timeout: WorkHCCL",
                "hccl fftsplus task timeout" }),
        sig(15, QT_TRANSLATE_NOOP("pd::LogSignatures", "RDMA completion error"), R"(EI0013|error CQE occurred)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "RDMA completion error between two devices: NIC port flapping or peer process exited."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "hccn_tool -i N -link_stat -g / -net_health -g on both ends; check peer logs."), S::Error,
            { "EI0013", "error CQE occurred" }, true),
    };
}

// KV transfer, ports and start-up: LLMDataDist, Mooncake, the serve port, the engine core, the plugin,
// torch / torch_npu.
QList<LogSignature> startupSignatures()
{
    using S = LogSeverity;
    return {
        sig(16, QT_TRANSLATE_NOOP("pd::LogSignatures", "LLMDataDist link failed"),
            R"(LLMStatusCode\.LLM_LINK_FAILED|\[LLMDataDist\.init\] failed|llm_datadist.*LLMException)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "LLMDataDist KV connector could not link P and D devices (bad global rank table / device IPs, NPU network "
            "not reachable, wrong HCCL_IF_IP e.g. 127.0.0.1)."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Verify DISAGGREGATED_PREFILL_RANK_TABLE_PATH content vs live device IPs; hccn_tool -ping P<->D device "
            "IPs."),
            S::Error, { "LLMStatusCode.LLM_LINK_FAILED", "[LLMDataDist.init] failed", "llm_datadist" }, true),
        sig(17, QT_TRANSLATE_NOOP("pd::LogSignatures", "Mooncake transfer failed"),
            R"(Mooncake transfer failed(?: for request|, ret: -?\d+)|Failed to connect to target: .*status: 1039\d\d|Transfer slice failed with status|Sync batch data transfer timeout|Connect timeout to: .*ASCEND_CONNECT_TIMEOUT)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Mooncake AscendDirect transfer could not connect/transfer between P and D (old CANN, missing "
            "use_ascend_direct, NPU network or port problem, timeout too short)."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "CANN >= 8.3.RC1, add \"use_ascend_direct\": true to kv_connector_extra_config, verify P<->D with "
            "hccn_tool -ping/-hccs_ping, raise ASCEND_CONNECT_TIMEOUT."),
            S::Error,
            { "Mooncake transfer failed", "Failed to connect to target: ",
                "Transfer slice failed with status", "Sync batch data transfer timeout", "Connect timeout to: " },
            true),
        sig(18, QT_TRANSLATE_NOOP("pd::LogSignatures", "Port already in use"),
            R"(zmq\.error\.ZMQError: Address already in use|OSError: \[Errno 98\] Address already in use|EADDRINUSE)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Port clash: kv_port inside AscendDirectTransport's random range [20000, 20000+npu_per_node*1000), two "
            "engines/DP ranks racing for the same port, or a stale process."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "kv_port >= 28000 (A2, 8 NPUs) / >= 36000 (A3, 16); unique --port, --data-parallel-rpc-port, "
            "kv_port..kv_port+chips per engine; kill stale engines."),
            S::Error,
            { "zmq.error.ZMQError: Address already in use", "OSError: [Errno 98] Address already in use",
                "EADDRINUSE" }),
        sig(19, QT_TRANSLATE_NOOP("pd::LogSignatures", "Engine core initialization failed"),
            R"(RuntimeError: Engine core initialization failed\. See root cause above)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Wrapper only: an EngineCore/worker died during startup."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Show the first ERROR/Traceback above it and classify that line instead."), S::Warning,
            { "RuntimeError: Engine core initialization failed. See root cause above" }),
        sig(20, QT_TRANSLATE_NOOP("pd::LogSignatures", "vLLM-Ascend plugin not loaded"),
            R"(Failed to infer device type|No platform detected, vLLM is running on UnspecifiedPlatform|Failed to load plugin ascend|No module named 'vllm_ascend'|libatb\.so: cannot open shared object file)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "vLLM-Ascend plugin not installed/importable or CANN/NNAL env not sourced."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "source /usr/local/Ascend/ascend-toolkit/set_env.sh and .../nnal/atb/set_env.sh; python -c \"import "
            "torch_npu, vllm_ascend\"; install matching vllm + vllm-ascend."),
            S::Critical,
            { "Failed to infer device type", "No platform detected, vLLM is running on UnspecifiedPlatform",
                "Failed to load plugin ascend", "No module named 'vllm_ascend'",
                "libatb.so: cannot open shared object file" }),
        sig(21, QT_TRANSLATE_NOOP("pd::LogSignatures", "torch / torch_npu version mismatch"),
            R"(libtorch_npu\.so: undefined symbol|Could not find a version that satisfies the requirement torch-npu==|requires torch==)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "torch / torch_npu / CANN / vllm version mismatch."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Install vLLM first, then vLLM-Ascend (it pins torch + torch-npu), or use the official image; don't "
            "upgrade torch afterwards."),
            S::Critical,
            { "libtorch_npu.so: undefined symbol",
                "Could not find a version that satisfies the requirement torch-npu==", "requires torch==" }),
    };
}

// The device and the runtime: DCMI, opening the NPU, operators, stream resources, the KV connector's ZMQ.
QList<LogSignature> deviceSignatures()
{
    using S = LogSeverity;
    return {
        sig(22, QT_TRANSLATE_NOOP("pd::LogSignatures", "DCMI cannot open the device"),
            R"(dcmi module initialize failed\. ret is -8005|because the device is used\. ret is -8020)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "npu-smi/DCMI cannot open the device in this container: device owned by another container, or container "
            "not privileged / missing /dev/davinci_manager, /dev/hisi_hdc, /dev/devmm_svm."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Free the device or run with --privileged and the standard device/driver mounts."), S::Critical,
            { "dcmi module initialize failed. ret is -8005", "because the device is used. ret is -8020" }),
        sig(23, QT_TRANSLATE_NOOP("pd::LogSignatures", "Runtime could not open the NPU"),
            R"(SetDevice.*error code is 507033|Set visible device failed, invalid device|open device \d+ failed)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Runtime could not open/set up the NPU: device busy/occupied, visible-device list names a device the "
            "container does not have, or driver fault."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Check ASCEND_RT_VISIBLE_DEVICES vs mounted /dev/davinciN, npu-smi info processes, driver health."),
            S::Critical, { "SetDevice", "Set visible device failed, invalid device", "open device " }),
        sig(24, QT_TRANSLATE_NOOP("pd::LogSignatures", "Operator / AI Core failure"),
            R"(EZ9999: Inner Error|EE9999|fftsplus aicore error|The aicore execution times out|error code is 5070(?:14|35|53))",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Operator / device task failure during execution (kernel constraint or AI Core fault). Known case: MLA "
            "needs heads-per-rank in {32,64,128}."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Take the first EZ/EE message: fix config (e.g. TP so num_heads/num_kv_heads in {32,64,128}); if aicore "
            "error repeats on one device, run npu-smi info -t health, collect plog, consider hardware."),
            S::Error,
            { "EZ9999: Inner Error", "EE9999", "fftsplus aicore error", "The aicore execution times out",
                "error code is 5070" }),
        sig(25, QT_TRANSLATE_NOOP("pd::LogSignatures", "Out of stream resources (graph capture)"),
            R"(Insufficient_Stream_Resources\(EL0009\)|error code is 207008)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "ACL graph capture ran out of stream resources."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Fewer cudagraph_capture_sizes, FULL_DECODE_ONLY mode, newer HDK/CANN; enforce_eager to confirm."), S::Error,
            { "Insufficient_Stream_Resources(EL0009)", "error code is 207008" }),
        sig(26, QT_TRANSLATE_NOOP("pd::LogSignatures", "ZMQ error in the KV connector"),
            R"(zmq\.error\.Again: Resource temporarily unavailable|zmq\.error\.ZMQError: Operation cannot be accomplished in current state)",
            QT_TRANSLATE_NOOP("pd::LogSignatures", "A ZMQ socket of the KV connector's side channel failed (a peer that stopped answering, or a socket used "
            "out of order after an earlier error); seen beside a KV cache stuck near full that never frees."),
            QT_TRANSLATE_NOOP("pd::LogSignatures", "Look at the peer engine (prefiller for a decoder) and its log; if the KV cache stays pinned, remove the "
            "engine from the proxy and restart it."),
            S::Error,
            { "zmq.error.Again: Resource temporarily unavailable",
                "zmq.error.ZMQError: Operation cannot be accomplished in current state" }),
    };
}

// The ids are the positions in this order (logSignature(id)).
QList<LogSignature> build()
{
    return memorySignatures() + hcclSignatures() + startupSignatures() + deviceSignatures();
}

} // namespace

QString logSeverityName(LogSeverity severity)
{
    static constexpr const char *names[] = { "info", "warning", "error", "critical" };
    return enumName(severity, names, "error");
}

const QList<LogSignature> &logSignatures()
{
    static const QList<LogSignature> table = build();
    return table;
}

const LogSignature *logSignature(int id)
{
    const auto &t = logSignatures();
    return id >= 1 && id <= t.size() ? &t.at(id - 1) : nullptr;
}

const LogSignature *logSignatureTitled(const QString &title)
{
    for (const LogSignature &s : logSignatures()) {
        if (s.title == title)
            return &s;
    }
    return nullptr;
}

} // namespace pd
