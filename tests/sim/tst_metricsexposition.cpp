// SPDX-License-Identifier: MIT
// One engine's /metrics text, byte for byte: two renders into the same reused buffer, the values changed
// between them (counters, histograms, gauges, a number growing into the exponent form, an HTTP series
// appearing), each against the text the renderer produced before it was made allocation-free
// (tests/sim/data/exposition-*.txt), for both flavours.
#include "engine/enginestats.h"
#include "engine/metricsexposition.h"

#include <QFile>
#include <QTest>

using namespace pd::sim;

namespace {

HttpHandlerStats handlerStats(const char *handler, const char *method, double created)
{
    HttpHandlerStats h;
    h.handler = handler;
    h.method = method;
    h.created = created;
    return h;
}

// Values of the first render (round 1) and of the second (round 2): every kind of number the exposition
// prints (integers, fractions, 1e6 and up in the exponent form, tiny ones), and series added on first use.
void fill(EngineStats &s, int round)
{
    s.created = 1764892800.123456;
    s.processStart = 1764892790.5;
    s.processVirtual = 4.6261317632e10;
    s.processResident = 3.1273e9 + round * 4096.0;
    s.processCpu = round == 1 ? 12.34 : 12.79;
    s.processOpenFds = 64 + round;
    s.gcCollected = { 1300.0 * round + 90, 230.0 * round, 50.0 * round };
    s.gcCollections = { 10.0 * round, 2.0 * round, 0 };
    s.running = 3 + round;
    s.waiting = round == 1 ? 0 : 7;
    s.waitingCapacity = round == 1 ? 0 : 5;
    s.waitingDeferred = round == 1 ? 0 : 2;
    s.kvUsage = round == 1 ? 0.0123456789 : 0.5;
    s.promptTokens = round == 1 ? 999999 : 1000001; // crosses into the exponent form
    s.generationTokens = 123456.0 * round;
    s.prefixQueries = 4096.0 * round;
    s.prefixHits = 1024.0 * round;
    s.success = { 10.0 * round, 1.0 * round, 0, round == 2 ? 1.0 : 0.0 };
    s.promptBySource = { 900.0 * round, 100.0 * round, 0 };
    s.promptCached = 100.0 * round;
    s.specDrafts = 50.0 * round;
    s.specDraftTokens = 50.0 * round;
    s.specAccepted = 40.0 * round;
    for (double &v : s.specAcceptedPerPos)
        v = 40.0 * round;
    const double observations[] = { 0.0004, 0.02, 0.3, 1.7, 12.5, 700.0, 3000.0, 65536.0 };
    for (double v : observations) {
        s.ttft.observe(v * round);
        s.tpot.observe(v / 100);
        s.e2e.observe(v);
        s.requestPromptTokens.observe(v * 10);
        s.iterationTokens.observe(v * 3);
        s.nixlXferTime.observe(v / 1000);
        s.nixlBytes.observe(v * 1e6);
    }
    s.httpHighr.observe(0.0005 * round);
    s.httpHighrCreated = 1764892800.5;
    if (s.httpRequests.empty())
        s.httpRequests.push_back({ "/v1/completions", "POST", "2xx", 0, 1764892801.25 });
    s.httpRequests[0].requests = 17.0 * round;
    if (s.httpHandlers.empty())
        s.httpHandlers.push_back(handlerStats("/v1/completions", "POST", 1764892801.25));
    if (round == 2) {
        s.httpRequests.push_back({ "/v1/chat/completions", "POST", "4xx", 2, 1764892900.0 });
        s.httpHandlers.push_back(handlerStats("/v1/chat/completions", "POST", 1764892900.0));
    }
    for (HttpHandlerStats &h : s.httpHandlers) {
        h.requestSizeCount += 1;
        h.requestSizeSum += 512.0 * round;
        h.responseSizeCount += 1;
        h.responseSizeSum += 2048.0;
        h.duration.observe(0.37 * round);
    }
}

QByteArray golden(const QString &name)
{
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/sim/data/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// On a mismatch: the first differing line of each, for the failure message.
QByteArray firstDifference(const QByteArray &actual, const QByteArray &expected)
{
    const QList<QByteArray> a = actual.split('\n');
    const QList<QByteArray> e = expected.split('\n');
    for (qsizetype i = 0; i < std::max(a.size(), e.size()); ++i) {
        if (a.value(i) != e.value(i))
            return "line " + QByteArray::number(i + 1) + ": got \"" + a.value(i) + "\", want \"" + e.value(i) + '"';
    }
    return {};
}

} // namespace

class TestMetricsExposition : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void twoRendersIntoOneBuffer_data();
    void twoRendersIntoOneBuffer();
};

void TestMetricsExposition::twoRendersIntoOneBuffer_data()
{
    QTest::addColumn<int>("flavor");
    QTest::addColumn<QString>("name");
    QTest::newRow("0.9.1") << int(MetricsFlavor::V0_9_1) << QStringLiteral("v091");
    QTest::newRow("main") << int(MetricsFlavor::Main) << QStringLiteral("main");
}

void TestMetricsExposition::twoRendersIntoOneBuffer()
{
    QFETCH(int, flavor);
    QFETCH(QString, name);
    EngineOptions options;
    options.flavor = MetricsFlavor(flavor);
    options.dpRank = 3;
    options.model = QStringLiteral("deepseek_r1");
    EngineStats stats(options.maxModelLen, 2);
    const MetricsExposition exposition(options, stats);

    QByteArray buffer;
    for (int round = 1; round <= 2; ++round) {
        fill(stats, round);
        buffer.resize(0); // keeps its capacity: the second render reuses the first one's memory
        exposition.renderInto(buffer);
        const QByteArray expected = golden(QStringLiteral("exposition-%1-%2.txt").arg(name).arg(round));
        QVERIFY2(!expected.isEmpty(), "golden file missing");
        QVERIFY2(buffer == expected, firstDifference(buffer, expected).constData());
    }
    QCOMPARE(exposition.render(), buffer); // the allocating form gives the same text
}

QTEST_GUILESS_MAIN(TestMetricsExposition)
#include "tst_metricsexposition.moc"
