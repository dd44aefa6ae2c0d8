// SPDX-License-Identifier: MIT
// The 25 signatures of spec §3 and the ZMQ one (26): each matched by a realistic log line, none by its near misses, and the
// fast scan agrees with line-by-line classification.
#include "logs/logmatcher.h"
#include "logs/logtaildiagnosis.h"

#include <QTest>

using namespace pd;

class TestLogSignatures final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void table();
    void matches_data();
    void matches();
    void hostileBytes();
    void nearMisses_data();
    void nearMisses();
    void genericErrors();
    void scanAgreesWithClassify();
    void aFailedStartsTailIsDiagnosed();

private:
    LogMatcher m_matcher;
};

void TestLogSignatures::table()
{
    const auto &t = logSignatures();
    QCOMPARE(t.size(), 26);
    for (int i = 0; i < t.size(); ++i) {
        QCOMPARE(t.at(i).id, i + 1);
        QVERIFY(QRegularExpression(t.at(i).pattern).isValid());
        QVERIFY(!t.at(i).diagnosis.isEmpty());
        QVERIFY(!t.at(i).fix.isEmpty());
        QVERIFY(!t.at(i).anchors.isEmpty());
    }
    QVERIFY(logSignature(8)->triggersNodeChecks);
    QVERIFY(!logSignature(1)->triggersNodeChecks);
    QVERIFY(!logSignature(0));
    QVERIFY(!logSignature(27));
}

void TestLogSignatures::matches_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("id");
    auto r = [](int id, const char *line) { QTest::addRow("%d: %.60s", id, line) << QString::fromUtf8(line) << id; };
    r(1,
        "RuntimeError: NPU out of memory. Tried to allocate 898.00 MiB (NPU 0; 60.96 GiB total capacity; 58.12 GiB "
        "already allocated)");
    r(2,
        "[ERROR] RUNTIME(1234,python):2025-06-12-10:11:12.123.456 EL0004: [PID: 1234] 2025-06-12 Failed to allocate "
        "memory.");
    r(3, "INFO 06-12 10:11:12 [worker.py:290] Available KV cache memory: -3.25 GiB");
    r(4,
        "RuntimeError: Tensor scale not implemented for DT_FLOAT16, should be in dtype support list "
        "[DT_UINT64,DT_BFLOAT16,DT_INT64,DT_FLOAT,].");
    r(5,
        "RuntimeError: createHCCLComm:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2166 HCCL function error: "
        "HcclGetRootInfo(&hcclID), error code is 11");
    r(5,
        "EJ0003: [PID: 991] 2025-03-01 Failed to bind the IP port. Reason: The IP address and port have been bound "
        "already.");
    r(5, "[ERROR] HCCL(991,python):2025-03-01 [hccl_socket.cc:70] host nic listen start failed, port[60000]");
    r(6, "[ERROR] HCCL(8811): Communication_Error_Bind_IP_Port(EI0019): Failed to bind ip 10.0.0.5 port 60000");
    r(6, "EI0019: Failed to enable listening for the host network adapter socket. IP: 10.0.0.5, port: 60000");
    r(7,
        "[ERROR] HCCP(77,python): socket type[1], listen on ip[29.1.2.10] and specific port[16666] fail, please check "
        "the port status");
    r(7, "EI0020: The device port is in use.");
    r(8, "EI0006: Getting socket times out. Reason: 1. The remote does not initiate a connect request.");
    r(8, "[ERROR] HCCL(3311): [Get][Socket]Get socket time out, rank[3] timeout[120 s]");
    r(8, "[ERROR] HCCL(3311): wait socket establish timeout, role[0] rank[3] timeout[120]");
    r(9, "[ERROR] HCCL(11): topo exchange agent get socket timeout! timeout[120 s]");
    r(9, "[ERROR] HCCL(11): connect server[10.0.0.5 : 60000] failed, ret[-1]");
    r(9, "EI0015: Failed to connect to the root rank: timeout.");
    r(10,
        "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: "
        "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 9");
    r(10, "[ERROR] 2025-05-01 ERR02200 DIST call hccl api failed.");
    r(11, "EI0009: Failed to create the transport link between devices 0 and 4.");
    r(11, "[ERROR] HCCL(12): Transport init error! createLink para: rank[0]-localUserrank[0]-localIpAddr[29.1.1.10]");
    r(12, "EI0016: Value 1 for config \"tls\" is invalid. Ensure that the value is the same on all ranks.");
    r(12, "[ERROR] HCCL(9): check tls config fail, All ranks are consistent is required");
    r(13, "EI0004: The ranktable is invalid. Reason: the ranktable path /x/ranktable.json is not a valid real path.");
    r(13,
        "[ERROR] HCCL(2): the IP address(29.1.1.10) in the ranktable is inconsistent with the IP address(29.1.1.11) of "
        "the network adapter");
    r(13, "[ERROR] HCCL(2): devices have same superDeviceId[0x3000000] in superPod[0]");
    r(14, "EI0002: A timeout occurs when the Notify register waits for the execution of a task.");
    r(14, "[rank3]:[E ProcessGroupHCCL.cpp:1390] HCCL watchdog thread terminated with exception: HCCL error");
    // The survivors of a broken DP group (docs/specs/dp-groups.md §3) and a collective task timeout.
    r(14,
        "[rank5]:[E ProcessGroupHCCL.cpp:548] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=8812, "
        "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800412 milliseconds before timing out.");
    r(14, "[ERROR] RUNTIME(4412,python):2025-09-02-11:04:33.812.001 hccl fftsplus task timeout, stream_id=12 task_id=88");
    r(15, "[ERROR] HCCP(55): error CQE occurred, qpn[10] status[12]");
    r(15, "EI0013: The RDMA link between devices is abnormal.");
    r(16, "llm_datadist.status.LLMException: [LLMDataDist.link] LLMStatusCode.LLM_LINK_FAILED");
    r(16, "ERROR 06-12 10:11:12 [llmdatadist_c_mgr_connector.py:300] [LLMDataDist.init] failed, ret=-1");
    r(17, "ERROR 06-12 10:11:12 [mooncake_connector.py:410] Mooncake transfer failed for request cmpl-9f3a");
    r(17, "ERROR 09-02 11:04:33 [mooncake_connector.py:512] Mooncake transfer failed, ret: -1");
    r(17, "E0612 10:11:12.000 transfer_engine.cpp:88] Failed to connect to target: 29.1.2.10:20001, status: 103901");
    r(17,
        "E0612 ascend_direct_transport.cpp:300] Connect timeout to: 29.1.2.10:20001, you can increase the timeout "
        "duration to reduce the failure rate by configuring the ASCEND_CONNECT_TIMEOUT environment variable.");
    r(18, "zmq.error.ZMQError: Address already in use (addr='tcp://0.0.0.0:20001')");
    r(18, "OSError: [Errno 98] Address already in use");
    r(19,
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_0': "
        "1}");
    r(20, "RuntimeError: Failed to infer device type");
    r(20, "INFO 06-12 10:11:12 [__init__.py:220] No platform detected, vLLM is running on UnspecifiedPlatform");
    r(20, "ModuleNotFoundError: No module named 'vllm_ascend'");
    r(20, "OSError: libatb.so: cannot open shared object file: No such file or directory");
    r(21,
        "ImportError: /usr/local/lib/python3.11/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "_ZN3c104cuda9SetDeviceEa");
    r(21,
        "ERROR: Could not find a version that satisfies the requirement torch-npu==2.5.1.post1.dev20250619 (from "
        "versions: none)");
    r(22, "dcmi module initialize failed. ret is -8005");
    r(22, "dcmi model initialized failed, because the device is used. ret is -8020");
    r(23,
        "RuntimeError: SetDevice:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:123 NPU function error: "
        "aclrtSetDevice(device_id), error code is 507033");
    r(23, "[ERROR] RUNTIME: Set visible device failed, invalid device=8, input visible devices:8");
    r(23, "[ERROR] DRV(1): open device 3 failed, errno=16");
    r(24, "EZ9999: Inner Error! EZ9999: 2025-06-12 The aicore execution times out.");
    r(24, "[ERROR] RUNTIME: fftsplus aicore error, kernel_name=MLAPreprocess");
    r(24, "RuntimeError: npuSynchronizeDevice: error code is 507035");
    r(25, "EL0009: Insufficient_Stream_Resources(EL0009): stream resources exhausted");
    r(25, "RuntimeError: capture failed, error code is 207008");
    r(26, "zmq.error.Again: Resource temporarily unavailable");
    r(26, "zmq.error.ZMQError: Operation cannot be accomplished in current state");
}

void TestLogSignatures::matches()
{
    QFETCH(QString, line);
    QFETCH(int, id);
    const QByteArray bytes = line.toUtf8();
    QCOMPARE(m_matcher.match(bytes), id);
    QVERIFY(m_matcher.classify(bytes).error);
    // The regex of the table alone agrees (the anchors only make it faster).
    QVERIFY(QRegularExpression(logSignature(id)->pattern).match(line).hasMatch());
}

void TestLogSignatures::nearMisses_data()
{
    QTest::addColumn<QString>("line");
    auto r = [](const char *line) { QTest::addRow("%.70s", line) << QString::fromUtf8(line); };
    r("INFO 06-12 10:11:12 NPU memory usage: 58.1 GiB. Tried to allocate nothing"); // 1
    r("npu out of memory. tried to allocate 10 MiB"); // 1 (case)
    r("EL0004 is documented in the CANN error table"); // 2 (no ': ')
    r("INFO Available KV cache memory: 31.25 GiB"); // 3
    r("Tensor scale not implemented for DT_BFLOAT16"); // 4
    r("HCCL function error: HcclGetRootInfo(&hcclID), error code is 110 cleanup"); // 5 (110), still row 10 though
    r("host nic listen start ok, port[60000]"); // 5
    r("socket type[2], listen on ip[1.2.3.4] and specific port[16666] fail"); // 7 (type 2)
    r("socket type[1], listen on ip[1.2.3.4] and specific port[16667] fail"); // 7 (port)
    r("EI000 is a prefix, EI006 too"); // 8
    r("connect server[10.0.0.5 : 60001] failed"); // 9 (port)
    r("Transport init ok createLink para ready"); // 11
    r("Value 1 for config \"tlsx\" is invalid"); // 12
    r("the ranktable is consistent with the IP address"); // 13
    r("CQE occurred without error"); // 15
    r("llm_datadist initialised, link ready"); // 16 (needs order)
    r("Mooncake transfer succeeded for request 1"); // 17
    r("Mooncake transfer failed to start, retrying"); // 17 (neither for request nor ret)
    r("Watchdog caught nothing"); // 14
    r("zmq.error.Again is retried by the connector"); // 26 (no message)
    r("Failed to connect to target: 10.0.0.1, status: 10400"); // 17 (status)
    r("Address already in use by design note"); // 18
    r("Engine core initialization finished"); // 19
    r("No platform detected yet, retrying"); // 20
    r("requires torchvision==0.20.1"); // 21
    r("dcmi module initialize failed. ret is -8006"); // 22
    r("SetDevice ok, error code is 0"); // 23
    r("open device 3 succeeded"); // 23
    r("error code is 507099"); // 24
    r("EE999 truncated"); // 24
    r("error code is 20700"); // 25
    r("Insufficient_Stream_Resources(EL0008)"); // 25
}

void TestLogSignatures::nearMisses()
{
    QFETCH(QString, line);
    const int id = m_matcher.match(line.toUtf8());
    // The one tolerated overlap: code 110 is not row 5 (port clash) but still a failed communicator (row 10).
    if (line.contains(QLatin1String("error code is 110")))
        QCOMPARE(id, 10);
    else
        QCOMPARE(id, 0);
}

void TestLogSignatures::genericErrors()
{
    QVERIFY(m_matcher.classify("ERROR 06-12 10:11:12 [core.py:12] EngineCore failed to start.").error);
    QVERIFY(m_matcher.classify("Traceback (most recent call last):").error);
    QVERIFY(m_matcher.classify("ValueError: num_heads must be divisible").error);
    QCOMPARE(m_matcher.classify("ERROR 06-12 generic").signatureId, 0);
    QVERIFY(!m_matcher.classify("INFO 06-12 10:11:12 [api_server.py:1] Started server process").error);
    QVERIFY(!m_matcher.classify("").error);
}

void TestLogSignatures::scanAgreesWithClassify()
{
    QByteArray log;
    QList<int> expected; // line index -> signature for error lines
    const char *lines[] = {
        "INFO 06-12 10:11:12 [api_server.py:1] Started server process [1]",
        "ERROR 06-12 10:11:13 [core.py:12] EngineCore failed to start.",
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB",
        "INFO ok",
        "EI0006: Getting socket times out.",
        "zmq.error.ZMQError: Address already in use",
    };
    for (int rep = 0; rep < 50; ++rep) {
        for (const char *l : lines)
            log += QByteArray(l) + '\n';
    }
    log.chop(1); // a last line without its newline still counts
    QList<QPair<qint64, int>> hits;
    m_matcher.scan(log, [&](qint64 line, qsizetype b, qsizetype e, const LogLineClass &c) {
        QCOMPARE(m_matcher.classify(QByteArrayView(log.constData() + b, e - b)), c);
        hits.append({ line, c.signatureId });
    });
    QCOMPARE(hits.size(), 50 * 4);
    QCOMPARE(hits.at(0), (QPair<qint64, int> { 1, 0 }));
    QCOMPARE(hits.at(1), (QPair<qint64, int> { 2, 1 }));
    QCOMPARE(hits.at(2), (QPair<qint64, int> { 4, 8 }));
    QCOMPARE(hits.last(), (QPair<qint64, int> { 299, 18 }));
}

// The tail of an engine that exited at start: its first known signature is the cause (a generic error
// line before it is not), later ones are consequences; a tail with none gives no diagnosis.
void TestLogSignatures::aFailedStartsTailIsDiagnosed()
{
    const QByteArray tail = "INFO 09-02 11:04:30 [api_server.py:1090] vLLM API server version 0.9.1\n"
                            "ERROR 09-02 11:04:31 [core.py:515] EngineCore failed to start.\n"
                            "EI0006: Getting socket times out. Reason: Remote Rank did not send the data in time.\n"
                            "RuntimeError: Engine core initialization failed. See root cause above.\n";
    const std::optional<LogTailDiagnosis> d = diagnoseLogTail(tail);
    QVERIFY(d.has_value());
    QCOMPARE(d->signatureId, 8);
    QCOMPARE(d->title, logSignature(8)->title);
    QVERIFY2(d->text().startsWith(QStringLiteral("cause in the log: HCCL link setup timeout (\"EI0006: Getting socket")), qPrintable(d->text()));
    QVERIFY(!diagnoseLogTail("ERROR something failed\nTraceback (most recent call last):\n").has_value());
    QVERIFY(!diagnoseLogTail({}).has_value());
    const QByteArray longLine = "RuntimeError: NPU out of memory. Tried to allocate " + QByteArray(500, 'x') + "\n";
    const std::optional<LogTailDiagnosis> cut = diagnoseLogTail(longLine);
    QVERIFY(cut.has_value());
    QCOMPARE(cut->line.size(), 200);
}

QTEST_GUILESS_MAIN(TestLogSignatures)
#include "tst_logsignatures.moc"

// Log bytes are whatever the node wrote: invalid UTF-8, NUL bytes, a 10 MB line without a newline.
// The matcher reads them as bytes, finds the signature where it is, and reports nothing else.
void TestLogSignatures::hostileBytes()
{
    const QByteArray oom = "RuntimeError: NPU out of memory. Tried to allocate 898.00 MiB";
    QCOMPARE(m_matcher.match(oom), 1);
    QCOMPARE(m_matcher.match(QByteArray(QByteArray("\xff\xfe\xc0\x80 ") + oom + "\xed\xa0\x80")), 1); // bad UTF-8 around it
    QCOMPARE(m_matcher.match(QByteArray(QByteArray("\0\0\0", 3) + oom)), 1);
    QCOMPARE(m_matcher.match(QByteArray(10 * 1024 * 1024, '\xff')), 0);
    QCOMPARE(m_matcher.match(QByteArray()), 0);
    QCOMPARE(m_matcher.match(QByteArray("RuntimeError: NPU out of mem")), 0); // truncated

    // 10 MB of one line with the signature at its very end, then a good line: two lines, one hit each.
    QByteArray text(10 * 1024 * 1024, 'x');
    text += oom + "\n" + oom;
    QList<qint64> hits;
    m_matcher.scan(text, [&hits](qint64 line, qsizetype, qsizetype, const LogLineClass &c) {
        if (c.signatureId == 1)
            hits.append(line);
    });
    QCOMPARE(hits, (QList<qint64>{0, 1}));
}
