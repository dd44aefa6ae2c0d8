// SPDX-License-Identifier: MIT
// The simulated vLLM engine over real HTTP on 127.0.0.1: endpoints, metric families against the spec,
// histogram invariants after traffic, SSE framing, the kv_transfer_params round trip, start-up, every
// fault kind, and promtool's verdict on both exposition flavours.
#include "engine/promformat.h"
#include "engine/simengine.h"
#include "simtestclient.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>

#include <nlohmann/json.hpp>

#include <map>

using namespace pd::sim;
using Json = nlohmann::json;

namespace {

EngineOptions fastOptions(EngineRole role, MetricsFlavor flavor = MetricsFlavor::V0_9_1)
{
    EngineOptions o;
    o.role = role;
    o.flavor = flavor;
    o.timeScale = 200.0; // 200 simulated seconds per second: a 40 ms decode step takes 0.2 ms
    o.timing.jitter = false;
    o.seed = 7;
    return o;
}

Json parseJson(const QByteArray &b)
{
    return Json::parse(b.constData(), b.constData() + b.size(), nullptr, false);
}

struct Exposition {
    std::map<std::string, double> samples;     // "name{labels}" -> value
    std::map<std::string, std::string> types;  // family -> type
    std::vector<std::string> histograms;
    double value(const std::string &key) const
    {
        const auto it = samples.find(key);
        return it == samples.end() ? -1.0 : it->second;
    }
};

Exposition parseExposition(const QByteArray &text)
{
    Exposition e;
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith("# TYPE ")) {
            const QList<QByteArray> p = line.split(' ');
            e.types[p.value(2).toStdString()] = p.value(3).toStdString();
            if (p.value(3) == "histogram")
                e.histograms.push_back(p.value(2).toStdString());
            continue;
        }
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype sp = line.lastIndexOf(' ');
        e.samples[line.left(sp).toStdString()] = line.mid(sp + 1).toDouble();
    }
    return e;
}

// promtool: exit 0 clean, 3 lint remarks only (the ':' in vLLM names), 1 parse error.
int promtool(const QByteArray &exposition, QString *output)
{
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (exe.isEmpty())
        return -1;
    QProcess p;
    p.start(exe, {QStringLiteral("check"), QStringLiteral("metrics")});
    if (!p.waitForStarted(5000))
        return -1;
    p.write(exposition);
    p.closeWriteChannel();
    if (!p.waitForFinished(20000)) {
        p.kill();
        p.waitForFinished(2000);
        return -2;
    }
    *output = QString::fromUtf8(p.readAllStandardError() + p.readAllStandardOutput());
    return p.exitCode();
}

QByteArray completionBody(int maxTokens, bool stream = false, const QByteArray &extra = {})
{
    return R"({"model":"deepseek_r1","prompt":")" + QByteArray(400, 'a') + R"(","max_tokens":)"
           + QByteArray::number(maxTokens) + R"(,"ignore_eos":true,"stream":)"
           + (stream ? "true" : "false") + extra + "}";
}

} // namespace

class TestSimEngine final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void promNumbers_data();
    void promNumbers();
    void endpoints();
    void apiKeyGuardsV1Only();
    void familiesMatchSpec_data();
    void familiesMatchSpec();
    void histogramInvariantsAfterTraffic();
    void sseFraming();
    void chatStream();
    void kvTransferRoundTrip();
    void startupRefusesThenReady();
    void gracefulShutdownFinishesInFlight();
    void faultHang();
    void faultCrash();
    void faultHttp500();
    void faultSlow();
    void faultMalformedMetrics();
    void faultStall();
    void faultNoneAndBadKind();
    void promtoolAcceptsExpositions_data();
    void promtoolAcceptsExpositions();
    void manyEnginesShareOneScheduler();
};

void TestSimEngine::promNumbers_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("text");
    // Values and spellings from sample-vllm-metrics.txt (prometheus_client's floatToGoString).
    QTest::newRow("zero") << 0.0 << QByteArray("0.0");
    QTest::newRow("int") << 41.0 << QByteArray("41.0");
    QTest::newRow("six digits") << 912377.0 << QByteArray("912377.0");
    QTest::newRow("seven digits") << 4127943.0 << QByteArray("4.127943e+06");
    QTest::newRow("eight digits") << 41279430.0 << QByteArray("4.127943e+07");
    QTest::newRow("1e6") << 1e6 << QByteArray("1e+06");
    QTest::newRow("fraction") << 0.6237384506949017 << QByteArray("0.6237384506949017");
    QTest::newRow("mixed") << 7068.426813035167 << QByteArray("7068.426813035167");
    QTest::newRow("big fraction") << 1104097.1429718174 << QByteArray("1.1040971429718174e+06");
    QTest::newRow("unix time") << 1752563418.3611999 << QByteArray("1.7525634183611999e+09");
    QTest::newRow("3-digit exponent") << 46261317632.0 << QByteArray("4.6261317632e+010");
    QTest::newRow("bytes bucket") << 2097152.0 << QByteArray("2.097152e+06");
    QTest::newRow("small") << 0.001 << QByteArray("0.001");
    QTest::newRow("tiny") << 0.00001 << QByteArray("1e-05");
    QTest::newRow("inf") << qInf() << QByteArray("+Inf");
}

void TestSimEngine::promNumbers()
{
    QFETCH(double, value);
    QFETCH(QByteArray, text);
    QCOMPARE(promNumber(value), text);
}

void TestSimEngine::endpoints()
{
    EngineOptions o = fastOptions(EngineRole::Decode);
    o.maxModelLen = 17000;
    SimEngine engine(o);
    QVERIFY(engine.start());
    SimClient c(engine.port());
    SimReply r = c.request("GET", "/health");
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.isEmpty());
    QCOMPARE(c.request("GET", "/ping").status, 200);
    r = c.request("GET", "/version");
    QVERIFY((parseJson(r.body)["version"]) == "0.9.1");
    r = c.request("GET", "/v1/models");
    QCOMPARE(r.status, 200);
    const Json models = parseJson(r.body);
    QVERIFY((models["object"]) == "list");
    QVERIFY((models["data"][0]["id"]) == "deepseek_r1");
    QVERIFY((models["data"][0]["object"]) == "model");
    QVERIFY((models["data"][0]["owned_by"]) == "vllm");
    QVERIFY((models["data"][0]["max_model_len"]) == 17000);
    QVERIFY(models["data"][0]["parent"].is_null());
    QVERIFY((models["data"][0]["permission"][0]["object"]) == "model_permission");
    r = c.request("GET", "/metrics");
    QCOMPARE(r.header("content-type"), QByteArray("text/plain; version=0.0.4; charset=utf-8"));
    r = c.request("GET", "/nope");
    QCOMPARE(r.status, 404);
    QCOMPARE(r.body, QByteArray(R"({"detail":"Not Found"})"));
    QCOMPARE(c.request("POST", "/reset_prefix_cache").status, 200);
    r = c.request("POST", "/v1/completions", R"({"model":"other","prompt":"x"})");
    QCOMPARE(r.status, 404);
    QVERIFY((parseJson(r.body)["type"]) == "NotFoundError");
    r = c.request("POST", "/v1/completions", "{not json");
    QCOMPARE(r.status, 400);
    r = c.request("POST", "/v1/completions", R"({"prompt":"x","max_tokens":17000})");
    QCOMPARE(r.status, 400);
    QVERIFY(parseJson(r.body)["message"].get<std::string>().find("maximum context length is 17000")
            != std::string::npos);
}

void TestSimEngine::apiKeyGuardsV1Only()
{
    EngineOptions o = fastOptions(EngineRole::Decode);
    o.apiKey = "sekret";
    SimEngine engine(o);
    QVERIFY(engine.start());
    SimClient c(engine.port());
    QCOMPARE(c.request("GET", "/v1/models").status, 401);
    QCOMPARE(c.request("POST", "/v1/completions", completionBody(2)).status, 401);
    QCOMPARE(c.request("GET", "/v1/models", {}, 5000, "Authorization: Bearer wrong\r\n").status, 401);
    QCOMPARE(c.request("GET", "/v1/models", {}, 5000, "Authorization: Bearer sekret\r\n").status, 200);
    QCOMPARE(c.request("GET", "/metrics").status, 200);
    QCOMPARE(c.request("GET", "/health").status, 200);
}

void TestSimEngine::familiesMatchSpec_data()
{
    QTest::addColumn<int>("flavor");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");
    // Wire names and types (vllm-metrics.md §2 for 0.9.1, §3 for main).
    QTest::newRow("0.9.1") << int(MetricsFlavor::V0_9_1)
                           << QStringList{
                                  QStringLiteral("vllm:num_requests_running gauge"),
                                  QStringLiteral("vllm:num_requests_waiting gauge"),
                                  QStringLiteral("vllm:gpu_cache_usage_perc gauge"),
                                  QStringLiteral("vllm:cache_config_info gauge"),
                                  QStringLiteral("vllm:prompt_tokens_total counter"),
                                  QStringLiteral("vllm:prompt_tokens_created gauge"),
                                  QStringLiteral("vllm:generation_tokens_total counter"),
                                  QStringLiteral("vllm:request_success_total counter"),
                                  QStringLiteral("vllm:num_preemptions_total counter"),
                                  QStringLiteral("vllm:gpu_prefix_cache_queries_total counter"),
                                  QStringLiteral("vllm:gpu_prefix_cache_hits_total counter"),
                                  QStringLiteral("vllm:spec_decode_num_drafts_total counter"),
                                  QStringLiteral("vllm:spec_decode_num_draft_tokens_total counter"),
                                  QStringLiteral("vllm:spec_decode_num_accepted_tokens_total counter"),
                                  QStringLiteral("vllm:spec_decode_num_accepted_tokens_per_pos_total counter"),
                                  QStringLiteral("vllm:time_to_first_token_seconds histogram"),
                                  QStringLiteral("vllm:time_per_output_token_seconds histogram"),
                                  QStringLiteral("vllm:e2e_request_latency_seconds histogram"),
                                  QStringLiteral("vllm:request_queue_time_seconds histogram"),
                                  QStringLiteral("vllm:request_inference_time_seconds histogram"),
                                  QStringLiteral("vllm:request_prefill_time_seconds histogram"),
                                  QStringLiteral("vllm:request_decode_time_seconds histogram"),
                                  QStringLiteral("vllm:request_prompt_tokens histogram"),
                                  QStringLiteral("vllm:request_generation_tokens histogram"),
                                  QStringLiteral("vllm:request_max_num_generation_tokens histogram"),
                                  QStringLiteral("vllm:request_params_max_tokens histogram"),
                                  QStringLiteral("vllm:request_params_n histogram"),
                                  QStringLiteral("vllm:iteration_tokens_total histogram"),
                                  QStringLiteral("process_start_time_seconds gauge"),
                                  QStringLiteral("process_cpu_seconds_total counter"),
                                  QStringLiteral("python_gc_objects_collected_total counter"),
                                  QStringLiteral("python_info gauge"),
                                  QStringLiteral("http_requests_total counter"),
                                  QStringLiteral("http_request_duration_highr_seconds histogram"),
                                  QStringLiteral("http_request_size_bytes summary")}
                           << QStringList{QStringLiteral("vllm:kv_cache_usage_perc"),
                                          QStringLiteral("vllm:inter_token_latency_seconds"),
                                          QStringLiteral("vllm:nixl_xfer_time_seconds")};
    QTest::newRow("main") << int(MetricsFlavor::Main)
                          << QStringList{
                                 QStringLiteral("vllm:kv_cache_usage_perc gauge"),
                                 QStringLiteral("vllm:prefix_cache_queries_total counter"),
                                 QStringLiteral("vllm:prefix_cache_hits_total counter"),
                                 QStringLiteral("vllm:inter_token_latency_seconds histogram"),
                                 QStringLiteral("vllm:request_time_per_output_token_seconds histogram"),
                                 QStringLiteral("vllm:num_requests_waiting_by_reason gauge"),
                                 QStringLiteral("vllm:engine_sleep_state gauge"),
                                 QStringLiteral("vllm:prompt_tokens_by_source_total counter"),
                                 QStringLiteral("vllm:prompt_tokens_cached_total counter"),
                                 QStringLiteral("vllm:request_prefill_kv_computed_tokens histogram"),
                                 QStringLiteral("vllm:nixl_xfer_time_seconds histogram"),
                                 QStringLiteral("vllm:nixl_post_time_seconds histogram"),
                                 QStringLiteral("vllm:nixl_bytes_transferred histogram"),
                                 QStringLiteral("vllm:nixl_num_descriptors histogram"),
                                 QStringLiteral("vllm:nixl_num_failed_transfers_total counter"),
                                 QStringLiteral("vllm:nixl_num_failed_notifications_total counter"),
                                 QStringLiteral("vllm:nixl_num_kv_expired_reqs_total counter")}
                          << QStringList{QStringLiteral("vllm:gpu_cache_usage_perc"),
                                         QStringLiteral("vllm:time_per_output_token_seconds"),
                                         QStringLiteral("vllm:gpu_prefix_cache_queries_total")};
}

void TestSimEngine::familiesMatchSpec()
{
    QFETCH(int, flavor);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    EngineOptions o = fastOptions(EngineRole::Decode, MetricsFlavor(flavor));
    o.dpRank = 5;
    o.model = QStringLiteral("r1 \"quoted\"");
    SimEngine engine(o);
    QVERIFY(engine.start());
    SimClient c(engine.port());
    QCOMPARE(c.request("POST", "/v1/completions",
                       R"({"prompt":"hello","max_tokens":3,"ignore_eos":true})")
                 .status,
             200);
    const Exposition e = parseExposition(c.request("GET", "/metrics").body);
    for (const QString &p : present) {
        const QStringList f = p.split(QLatin1Char(' '));
        const auto it = e.types.find(f[0].toStdString());
        QVERIFY2(it != e.types.end(), qPrintable(f[0]));
        QCOMPARE(QString::fromStdString(it->second), f[1]);
    }
    for (const QString &a : absent)
        QVERIFY2(e.types.find(a.toStdString()) == e.types.end(), qPrintable(a));
    // Labels sorted by name, engine = DP rank, model name escaped.
    const std::string l = R"({engine="5",model_name="r1 \"quoted\""})";
    QCOMPARE(e.value("vllm:prompt_tokens_total" + l), 2.0);
    QCOMPARE(e.value("vllm:generation_tokens_total" + l), 3.0);
    QCOMPARE(e.value(R"(vllm:request_success_total{engine="5",finished_reason="length",model_name="r1 \"quoted\""})"),
             1.0);
    QCOMPARE(e.value(R"(vllm:request_success_total{engine="5",finished_reason="abort",model_name="r1 \"quoted\""})"),
             0.0);
    // 1-2-5 buckets up to max_model_len 32768: 14 finite buckets, the last 20000.
    QVERIFY(e.samples.count(R"(vllm:request_prompt_tokens_bucket{engine="5",le="20000.0",model_name="r1 \"quoted\""})"));
    QVERIFY(!e.samples.count(R"(vllm:request_prompt_tokens_bucket{engine="5",le="50000.0",model_name="r1 \"quoted\""})"));
    QVERIFY(e.samples.count(R"(vllm:time_to_first_token_seconds_bucket{engine="5",le="2560.0",model_name="r1 \"quoted\""})"));
}

void TestSimEngine::histogramInvariantsAfterTraffic()
{
    EngineOptions o = fastOptions(EngineRole::Decode);
    o.timeScale = 10; // slow enough to watch the queue form
    SimEngine engine(o);
    QVERIFY(engine.start());
    // 40 concurrent requests against max-num-seqs 28: some wait, all finish.
    std::vector<std::unique_ptr<SimClient>> clients;
    for (int i = 0; i < 40; ++i) {
        clients.push_back(std::make_unique<SimClient>(engine.port()));
        QVERIFY(clients.back()->connect());
        clients.back()->send("POST", "/v1/completions", completionBody(20 + i));
    }
    QTRY_VERIFY_WITH_TIMEOUT(engine.state().running == 28, 5000);
    QVERIFY(engine.state().waiting >= 1);
    int generated = 0;
    for (int i = 0; i < 40; ++i) {
        const SimReply r = clients[std::size_t(i)]->read(20000);
        QCOMPARE(r.status, 200);
        const Json j = parseJson(r.body);
        QCOMPARE(j["usage"]["completion_tokens"].get<int>(), 20 + i);
        QVERIFY((j["choices"][0]["finish_reason"]) == "length");
        generated += 20 + i;
    }
    SimClient c(engine.port());
    const Exposition e = parseExposition(c.request("GET", "/metrics").body);
    const std::string l = R"({engine="0",model_name="deepseek_r1"})";
    QCOMPARE(e.value("vllm:request_success_total{engine=\"0\",finished_reason=\"length\",model_name=\"deepseek_r1\"}"), 40.0);
    QCOMPARE(e.value("vllm:generation_tokens_total" + l), double(generated));
    QCOMPARE(e.value("vllm:num_requests_running" + l), 0.0);
    QCOMPARE(e.value("vllm:e2e_request_latency_seconds_count" + l), 40.0);
    QCOMPARE(e.value("vllm:request_generation_tokens_sum" + l), double(generated));
    QVERIFY(e.value("vllm:request_queue_time_seconds_sum" + l) > 0); // 12 requests had to wait
    // MTP: accepted/draft ≈ α = 0.8 and tokens = first tokens + drafts + accepted.
    const double drafts = e.value("vllm:spec_decode_num_drafts_total" + l);
    const double accepted = e.value("vllm:spec_decode_num_accepted_tokens_total" + l);
    QVERIFY(drafts > 0 && accepted / drafts > 0.7 && accepted / drafts < 0.9);
    QCOMPARE(e.value("vllm:time_per_output_token_seconds_count" + l), double(generated) - 40 - accepted);
    for (const std::string &h : e.histograms) {
        if (h.rfind("http_", 0) == 0)
            continue;
        const double count = e.value(h + "_count" + l);
        const double inf = e.value(h + "_bucket{engine=\"0\",le=\"+Inf\",model_name=\"deepseek_r1\"}");
        QVERIFY2(count >= 0 && count == inf, h.c_str());
        // cumulative buckets never decrease
        double prev = 0;
        for (const auto &[key, v] : e.samples) {
            Q_UNUSED(key);
            Q_UNUSED(v);
        }
        for (double b : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
            const double v = e.value(h + "_bucket{engine=\"0\",le=\"" + promNumber(b).toStdString()
                                     + "\",model_name=\"deepseek_r1\"}");
            if (v < 0)
                continue;
            QVERIFY2(v >= prev && v <= inf, h.c_str());
            prev = v;
        }
    }
    for (const char *h : {"vllm:request_queue_time_seconds", "vllm:request_prefill_time_seconds",
                          "vllm:request_decode_time_seconds", "vllm:request_inference_time_seconds",
                          "vllm:request_prompt_tokens", "vllm:request_generation_tokens",
                          "vllm:request_params_max_tokens"})
        QCOMPARE(e.value(std::string(h) + "_count" + l), 40.0);
    QCOMPARE(e.value("vllm:time_to_first_token_seconds_count" + l), 40.0);
    // Counters never decrease between scrapes.
    QCOMPARE(c.request("POST", "/v1/completions", completionBody(5)).status, 200);
    const Exposition e2 = parseExposition(c.request("GET", "/metrics").body);
    for (const auto &[key, v] : e.samples) {
        if (key.find("_total") != std::string::npos || key.find("_count") != std::string::npos
            || key.find("_bucket") != std::string::npos)
            QVERIFY2(e2.value(key) >= v, key.c_str());
    }
}

void TestSimEngine::sseFraming()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient c(engine.port());
    const SimReply r = c.request(
        "POST", "/v1/completions",
        completionBody(12, true, R"(,"stream_options":{"include_usage":true})"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("content-type"), QByteArray("text/event-stream; charset=utf-8"));
    QCOMPARE(r.header("transfer-encoding"), QByteArray("chunked"));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    const QList<QByteArray> events = r.body.split('\n');
    int text = 0;
    QByteArray all;
    Json usage;
    QByteArray finish;
    QList<QByteArray> payloads;
    for (const QByteArray &ev : r.body.split('\n')) {
        if (ev.isEmpty())
            continue;
        QVERIFY2(ev.startsWith("data: "), ev.constData());
        payloads.append(ev.mid(6));
    }
    QCOMPARE(payloads.last(), QByteArray("[DONE]"));
    payloads.removeLast();
    // every event is "data: <json>\n\n": count separators
    QCOMPARE(r.body.count("\n\n"), payloads.size() + 1);
    for (const QByteArray &p : payloads) {
        const Json j = parseJson(p);
        QVERIFY(j.is_object());
        QVERIFY((j["object"]) == "text_completion");
        if (j["choices"].empty()) {
            usage = j["usage"];
            continue;
        }
        all += QByteArray::fromStdString(j["choices"][0]["text"].get<std::string>());
        ++text;
        if (!j["choices"][0]["finish_reason"].is_null())
            finish = QByteArray::fromStdString(j["choices"][0]["finish_reason"].get<std::string>());
    }
    QCOMPARE(finish, QByteArray("length"));
    QCOMPARE(usage["completion_tokens"].get<int>(), 12);
    QCOMPARE(usage["prompt_tokens"].get<int>(), 100);
    QCOMPARE(usage["total_tokens"].get<int>(), 112);
    QCOMPARE(all.count(' ') + 1, 12); // one word per token
    QVERIFY(text >= 6 && text <= 12); // MTP: up to 2 tokens per event
    // without include_usage no usage chunk
    const SimReply r2 = c.request("POST", "/v1/completions", completionBody(3, true));
    QVERIFY(!r2.body.contains("\"usage\""));
    QVERIFY(r2.body.endsWith("data: [DONE]\n\n"));
}

void TestSimEngine::chatStream()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient c(engine.port());
    const SimReply r = c.request(
        "POST", "/v1/chat/completions",
        R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"ignore_eos":true,"stream":true})");
    QCOMPARE(r.status, 200);
    const QByteArray first = r.body.left(r.body.indexOf("\n\n"));
    const Json j = parseJson(first.mid(6));
    QVERIFY((j["object"]) == "chat.completion.chunk");
    QVERIFY((j["choices"][0]["delta"]["role"]) == "assistant");
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    const SimReply n = c.request("POST", "/v1/chat/completions",
                                 R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"ignore_eos":true})");
    const Json k = parseJson(n.body);
    QVERIFY((k["object"]) == "chat.completion");
    QVERIFY((k["choices"][0]["message"]["role"]) == "assistant");
    QCOMPARE(k["usage"]["completion_tokens"].get<int>(), 4);
}

void TestSimEngine::kvTransferRoundTrip()
{
    EngineScheduler scheduler;
    EngineOptions po = fastOptions(EngineRole::Prefill, MetricsFlavor::Main);
    po.kvPort = 30100;
    SimEngine prefill(po, &scheduler);
    SimEngine decode(fastOptions(EngineRole::Decode, MetricsFlavor::Main), &scheduler);
    QVERIFY(prefill.start());
    QVERIFY(decode.start());
    // What the proxy sends to the prefiller (proxy-api.md §2.5 step 3).
    const QByteArray prompt(3500 * 4, 'p');
    const QByteArray pBody = R"({"model":"deepseek_r1","prompt":")" + prompt
                             + R"(","max_tokens":1,"min_tokens":1,"stream":false,"kv_transfer_params":)"
                               R"({"do_remote_decode":true,"do_remote_prefill":false,"remote_engine_id":null,)"
                               R"("remote_block_ids":null,"remote_host":null,"remote_port":null}})";
    SimClient pc(prefill.port());
    const SimReply pr = pc.request("POST", "/v1/completions", pBody);
    QCOMPARE(pr.status, 200);
    const Json pj = parseJson(pr.body);
    const Json kv = pj["kv_transfer_params"];
    QVERIFY((kv["do_remote_prefill"]) == true);
    QVERIFY((kv["do_remote_decode"]) == false);
    QCOMPARE(kv["remote_engine_id"].get<std::string>(), prefill.engineId().toStdString());
    QCOMPARE(kv["remote_block_ids"].size(), std::size_t(28)); // ceil(3500 / 128)
    QVERIFY((kv["remote_host"]) == "127.0.0.1");
    QVERIFY((kv["remote_port"]) == 30100);
    QVERIFY((pj["choices"][0]["finish_reason"]) == "length");
    QVERIFY((pj["usage"]["completion_tokens"]) == 1);
    // The decoder gets the client's body plus those params.
    Json dBody = {{"model", "deepseek_r1"}, {"prompt", prompt.toStdString()}, {"max_tokens", 8},
                  {"ignore_eos", true}, {"kv_transfer_params", kv}};
    SimClient dc(decode.port());
    const SimReply dr = dc.request("POST", "/v1/completions", QByteArray::fromStdString(dBody.dump()));
    QCOMPARE(dr.status, 200);
    QVERIFY((parseJson(dr.body)["usage"]["completion_tokens"]) == 8);
    QVERIFY(parseJson(dr.body)["kv_transfer_params"].is_null());
    const Exposition d = parseExposition(dc.request("GET", "/metrics").body);
    const std::string l = R"({engine="0",model_name="deepseek_r1"})";
    QCOMPARE(d.value("vllm:nixl_xfer_time_seconds_count" + l), 1.0);
    QCOMPARE(d.value("vllm:nixl_bytes_transferred_sum" + l), 3500 * 71424.0);
    QCOMPARE(d.value(R"(vllm:prompt_tokens_by_source_total{engine="0",model_name="deepseek_r1",source="local_compute"})"), 1.0);
    QCOMPARE(d.value(R"(vllm:prompt_tokens_by_source_total{engine="0",model_name="deepseek_r1",source="external_kv_transfer"})"), 3499.0);
    QCOMPARE(d.value("vllm:prompt_tokens_total" + l), 3500.0);
    // Decode-side TTFT = KV pull (10 ms + 250 MB / 20 GB/s + 240 ms first contact) + first step: no
    // 3.5k-token prefill (≈ 0.35 s) was computed there.
    const double ttft = d.value("vllm:time_to_first_token_seconds_sum" + l);
    QVERIFY2(ttft > 0.25 && ttft < 0.40, qPrintable(QString::number(ttft)));
    const Exposition p = parseExposition(pc.request("GET", "/metrics").body);
    const double pTtft = p.value("vllm:time_to_first_token_seconds_sum" + l);
    // one 3.5k prompt on a cold prefiller: (50 ms + 3500 (1 + 3500/30000) / 13000) × 3 warm-up
    QVERIFY2(pTtft > 0.9 && pTtft < 1.2, qPrintable(QString::number(pTtft)));
}

void TestSimEngine::startupRefusesThenReady()
{
    EngineOptions o = fastOptions(EngineRole::Prefill);
    o.port = 0;
    o.startupSeconds = 360; // realistic prefill start-up; 1.8 s at time-scale 200
    // Take a free port first so the test can try it while nothing listens.
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        o.port = probe.serverPort();
    }
    SimEngine engine(o);
    QSignalSpy ready(&engine, &SimEngine::ready);
    QVERIFY(engine.start());
    QCOMPARE(engine.status(), SimEngine::Status::Starting);
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, o.port);
    QTRY_COMPARE(s.state(), QAbstractSocket::UnconnectedState);
    QCOMPARE(s.error(), QAbstractSocket::ConnectionRefusedError);
    QVERIFY(ready.wait(10000));
    QCOMPARE(engine.status(), SimEngine::Status::Ready);
    SimClient c(o.port);
    QCOMPARE(c.request("GET", "/health").status, 200);
}

void TestSimEngine::gracefulShutdownFinishesInFlight()
{
    EngineOptions o = fastOptions(EngineRole::Decode);
    o.timeScale = 20;
    SimEngine engine(o);
    QVERIFY(engine.start());
    const quint16 port = engine.port();
    SimClient c(port);
    QVERIFY(c.connect());
    c.send("POST", "/v1/completions", completionBody(60)); // ≈ 30 steps × 42 ms / 20 ≈ 65 ms
    QTRY_COMPARE(engine.state().running, 1);
    QSignalSpy stopped(&engine, &SimEngine::stopped);
    engine.shutdown(10000);
    QTcpSocket late;
    late.connectToHost(QHostAddress::LocalHost, port);
    QTRY_COMPARE(late.state(), QAbstractSocket::UnconnectedState); // no longer accepting
    const SimReply r = c.read(10000);
    QCOMPARE(r.status, 200);
    QVERIFY((parseJson(r.body)["usage"]["completion_tokens"]) == 60);
    QTRY_COMPARE(stopped.count(), 1);
}

void TestSimEngine::faultHang()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient streaming(engine.port());
    QVERIFY(streaming.connect());
    streaming.send("POST", "/v1/completions", completionBody(100000 / 10, true));
    QTRY_VERIFY(streaming.rawBuffer().contains("data: "));
    engine.setFault(FaultKind::Hang);
    SimClient c(engine.port());
    QVERIFY(c.connect()); // accepts connections ...
    c.send("GET", "/health");
    QCOMPARE(c.read(300).status, 0); // ... never answers
    const qsizetype seen = streaming.rawBuffer().size();
    QTest::qWait(100);
    QCOMPARE(streaming.rawBuffer().size(), seen); // the stream froze
    const double tokens = engine.state().generationTokens;
    QTest::qWait(50);
    QCOMPARE(engine.state().generationTokens, tokens);
    // the control endpoint still works and lifts the fault
    SimClient ctl(engine.port());
    const SimReply r = ctl.request("POST", "/sim/fault", R"({"kind":"none"})");
    QCOMPARE(r.status, 200);
    QTRY_VERIFY(streaming.rawBuffer().size() > seen);
}

void TestSimEngine::faultCrash()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    const quint16 port = engine.port();
    SimClient streaming(port);
    QVERIFY(streaming.connect());
    streaming.send("POST", "/v1/completions", completionBody(5000, true));
    QTRY_VERIFY(streaming.rawBuffer().contains("data: "));
    QSignalSpy crashed(&engine, &SimEngine::crashed);
    SimClient ctl(port);
    QCOMPARE(ctl.request("POST", "/sim/fault", R"({"kind":"crash"})").status, 200);
    QTRY_COMPARE(crashed.count(), 1);
    QCOMPARE(engine.status(), SimEngine::Status::Crashed);
    QTRY_COMPARE(streaming.socket().state(), QAbstractSocket::UnconnectedState);
    QVERIFY(!streaming.rawBuffer().contains("[DONE]"));
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    QTRY_COMPARE(s.state(), QAbstractSocket::UnconnectedState);
    // A restart is a new process: counters start from zero.
    QVERIFY(engine.start());
    SimClient c(engine.port());
    QCOMPARE(c.request("GET", "/health").status, 200);
    QCOMPARE(engine.state().finished, 0.0);
}

void TestSimEngine::faultHttp500()
{
    EngineOptions o = fastOptions(EngineRole::Decode);
    o.fault = FaultKind::Http500; // given at start, like --fault http500
    SimEngine engine(o);
    QVERIFY(engine.start());
    SimClient c(engine.port());
    SimReply r = c.request("GET", "/health");
    QCOMPARE(r.status, 500);
    QVERIFY(r.body.isEmpty());
    r = c.request("POST", "/v1/completions", completionBody(3));
    QCOMPARE(r.status, 500);
    QVERIFY((parseJson(r.body)["object"]) == "error");
    QCOMPARE(c.request("GET", "/metrics").status, 200); // stale metrics still served
    QCOMPARE(c.request("POST", "/sim/fault", R"({"kind":"none"})").status, 200);
    QCOMPARE(c.request("GET", "/health").status, 200);
}

void TestSimEngine::faultSlow()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient c(engine.port());
    QCOMPARE(c.request("POST", "/sim/fault", R"({"kind":"slow","ms":300})").status, 200);
    QElapsedTimer t;
    t.start();
    QCOMPARE(c.request("GET", "/health").status, 200);
    QVERIFY2(t.elapsed() >= 290, qPrintable(QString::number(t.elapsed())));
    t.restart();
    QCOMPARE(c.request("GET", "/metrics").status, 200);
    QVERIFY(t.elapsed() >= 290);
}

void TestSimEngine::faultMalformedMetrics()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient c(engine.port());
    const QByteArray good = c.request("GET", "/metrics").body;
    engine.setFault(FaultKind::MalformedMetrics);
    const QByteArray bad = c.request("GET", "/metrics").body;
    QVERIFY(bad.size() < good.size());
    QVERIFY(!bad.endsWith('\n'));
    QString out;
    const int rc = promtool(bad, &out);
    if (rc >= 0)
        QCOMPARE(rc, 1); // a parse error, as a scraper would see it
    QCOMPARE(c.request("GET", "/health").status, 200);
}

void TestSimEngine::faultStall()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient streaming(engine.port());
    QVERIFY(streaming.connect());
    streaming.send("POST", "/v1/completions", completionBody(20000, true));
    QTRY_VERIFY(engine.state().generationTokens > 5);
    SimClient c(engine.port());
    QCOMPARE(c.request("POST", "/sim/fault", R"({"kind":"stall"})").status, 200);
    const EngineState before = engine.state();
    QTest::qWait(150); // the engine must not move while stalled (bounded observation window)
    SimReply r = c.request("GET", "/health");
    QCOMPARE(r.status, 200); // vLLM's health check misses it
    const Exposition e = parseExposition(c.request("GET", "/metrics").body);
    const std::string l = R"({engine="0",model_name="deepseek_r1"})";
    QCOMPARE(e.value("vllm:generation_tokens_total" + l), before.generationTokens);
    QCOMPARE(e.value("vllm:num_requests_running" + l), 1.0);
    // new requests queue up behind the stuck batch
    SimClient second(engine.port());
    QVERIFY(second.connect());
    second.send("POST", "/v1/completions", completionBody(2));
    QCOMPARE(second.read(200).status, 0);
    QCOMPARE(c.request("POST", "/sim/fault", R"({"kind":"none"})").status, 200);
    QTRY_VERIFY(engine.state().generationTokens > before.generationTokens);
    QCOMPARE(second.read(10000).status, 200);
}

void TestSimEngine::faultNoneAndBadKind()
{
    SimEngine engine(fastOptions(EngineRole::Decode));
    QVERIFY(engine.start());
    SimClient c(engine.port());
    QCOMPARE(c.request("POST", "/sim/fault", R"({"kind":"meteor"})").status, 400);
    QCOMPARE(c.request("POST", "/sim/fault", "garbage").status, 400);
    const SimReply r = c.request("POST", "/sim/fault", R"({"kind":"none"})");
    QCOMPARE(r.status, 200);
    QVERIFY((parseJson(r.body)["fault"]) == "none");
    const Json s = parseJson(c.request("GET", "/sim/state").body);
    QVERIFY((s["fault"]) == "none");
    QVERIFY((s["running"]) == 0);
    QVERIFY((s["role"]) == "decode");
}

void TestSimEngine::promtoolAcceptsExpositions_data()
{
    QTest::addColumn<int>("role");
    QTest::addColumn<int>("flavor");
    QTest::newRow("prefill 0.9.1") << int(EngineRole::Prefill) << int(MetricsFlavor::V0_9_1);
    QTest::newRow("decode 0.9.1") << int(EngineRole::Decode) << int(MetricsFlavor::V0_9_1);
    QTest::newRow("prefill main") << int(EngineRole::Prefill) << int(MetricsFlavor::Main);
    QTest::newRow("decode main") << int(EngineRole::Decode) << int(MetricsFlavor::Main);
}

void TestSimEngine::promtoolAcceptsExpositions()
{
    QFETCH(int, role);
    QFETCH(int, flavor);
    if (QStandardPaths::findExecutable(QStringLiteral("promtool")).isEmpty()) {
        if (!qEnvironmentVariableIsEmpty("CI"))
            QFAIL("promtool (Debian package prometheus) is required in CI");
        QSKIP("promtool not installed");
    }
    SimEngine engine(fastOptions(EngineRole(role), MetricsFlavor(flavor)));
    QVERIFY(engine.start());
    SimClient c(engine.port());
    const QByteArray max = role == int(EngineRole::Prefill) ? "1" : "30";
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(c.request("POST", "/v1/completions",
                           R"({"prompt":"some prompt text of a few words","max_tokens":)" + max + "}")
                     .status,
                 200);
    }
    QCOMPARE(c.request("GET", "/v1/models").status, 200);
    QCOMPARE(c.request("GET", "/nothing").status, 404);
    const QByteArray text = c.request("GET", "/metrics").body;
    QVERIFY(text.contains("http_requests_total{handler=\"/v1/completions\",method=\"POST\",status=\"2xx\"} 5.0"));
    QString out;
    const int rc = promtool(text, &out);
    QVERIFY2(rc == 0 || rc == 3, qPrintable(out.left(2000)));
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        // only the expected lint remarks
        QVERIFY2(line.contains(QLatin1String("should not contain ':'"))
                     || line.contains(QLatin1String("non-counter metrics should not have \"_total\" suffix")),
                 qPrintable(line));
    }
}

void TestSimEngine::manyEnginesShareOneScheduler()
{
    EngineScheduler scheduler;
    std::vector<std::unique_ptr<SimEngine>> engines;
    for (int i = 0; i < 64; ++i) {
        EngineOptions o = fastOptions(i % 8 == 0 ? EngineRole::Prefill : EngineRole::Decode);
        o.dpRank = i;
        engines.push_back(std::make_unique<SimEngine>(o, &scheduler));
        QVERIFY(engines.back()->start());
    }
    QCOMPARE(scheduler.pendingWakeups(), 0); // idle: nothing scheduled, nothing ticks
    std::vector<std::unique_ptr<SimClient>> clients;
    for (auto &e : engines) {
        clients.push_back(std::make_unique<SimClient>(e->port()));
        QVERIFY(clients.back()->connect());
        clients.back()->send("POST", "/v1/completions", completionBody(10));
    }
    for (auto &c : clients)
        QCOMPARE(c->read(20000).status, 200);
    QTRY_COMPARE(scheduler.pendingWakeups(), 0);
    // Rendering cost: a 43 KB exposition per call.
    SimEngine &e0 = *engines[1];
    QElapsedTimer t;
    t.start();
    qsizetype bytes = 0;
    for (int i = 0; i < 200; ++i)
        bytes += e0.renderMetrics().size();
    qInfo("renderMetrics: %.1f us per call, %lld bytes", t.nsecsElapsed() / 1000.0 / 200, qlonglong(bytes / 200));
}

QTEST_GUILESS_MAIN(TestSimEngine)
#include "tst_simengine.moc"
