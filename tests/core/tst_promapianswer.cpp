// SPDX-License-Identifier: MIT
// The Prometheus HTTP API decoder: vector, matrix, scalar, the special values, status error with
// errorType/error, warnings, targets; every malformed shape named by where it is wrong.
#include "metrics/promapianswer.h"

#include <QFile>
#include <QTest>

#include <cmath>

using namespace pd;
using Outcome = PromApiAnswer::Outcome;

namespace {

QByteArray fixture(const QString &name)
{
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/prometheus/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(name));
    return f.readAll();
}

PromApiAnswer decode(int status, const QByteArray &body)
{
    return decodePromQueryAnswer(status, std::string_view(body.constData(), std::size_t(body.size())));
}

} // namespace

class TestPromApiAnswer final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void vector()
    {
        const PromApiAnswer a = decode(200, R"({"status":"success","data":{"resultType":"vector","result":[
            {"metric":{"__name__":"up","instance":"127.0.0.2:9000","job":"vllm"},"value":[1764615000.123,"1"]},
            {"metric":{"__name__":"up","instance":"127.0.0.3:9000","job":"vllm"},"value":[1764615000.5,"0"]}]}})");
        QVERIFY2(a.ok(), qPrintable(a.error));
        QCOMPARE(a.resultType, PromResultType::Vector);
        QCOMPARE(a.series.size(), std::size_t(2));
        QCOMPARE(a.series[0].label("instance"), std::string_view("127.0.0.2:9000"));
        QCOMPARE(a.series[0].label("__name__"), std::string_view("up"));
        QCOMPARE(a.series[0].label("absent"), std::string_view());
        QCOMPARE(a.series[0].points.size(), std::size_t(1));
        QCOMPARE(a.series[0].points[0].timeMs, qint64(1764615000123));
        QCOMPARE(a.series[0].points[0].value, 1.0);
        QCOMPARE(a.series[1].points[0].timeMs, qint64(1764615000500));
        QCOMPARE(a.series[1].points[0].value, 0.0);
        QVERIFY(a.warnings.isEmpty());
    }

    void matrixWithSpecialValues()
    {
        const PromApiAnswer a = decode(200, R"({"status":"success","data":{"resultType":"matrix","result":[
            {"metric":{"le":"+Inf"},"values":[[1.0,"NaN"],[2,"+Inf"],[3.001,"-Inf"],[4,"1e+06"],[5,"-0.25"]]}]}})");
        QVERIFY2(a.ok(), qPrintable(a.error));
        QCOMPARE(a.resultType, PromResultType::Matrix);
        const std::vector<PromPoint> &p = a.series.at(0).points;
        QCOMPARE(p.size(), std::size_t(5));
        QVERIFY(std::isnan(p[0].value));
        QCOMPARE(p[0].timeMs, qint64(1000));
        QVERIFY(std::isinf(p[1].value) && p[1].value > 0);
        QVERIFY(std::isinf(p[2].value) && p[2].value < 0);
        QCOMPARE(p[2].timeMs, qint64(3001));
        QCOMPARE(p[3].value, 1e6);
        QCOMPARE(p[4].value, -0.25);
    }

    void scalarAndWarnings()
    {
        const PromApiAnswer a
            = decode(200, R"({"status":"success","warnings":["PromQL info: metric might not be a counter"],
            "data":{"resultType":"scalar","result":[1764615000,"42"]}})");
        QVERIFY2(a.ok(), qPrintable(a.error));
        QCOMPARE(a.resultType, PromResultType::Scalar);
        QCOMPARE(a.series.at(0).points.at(0).value, 42.0);
        QCOMPARE(a.warnings, QStringList { QStringLiteral("PromQL info: metric might not be a counter") });
    }

    void emptyResult()
    {
        const PromApiAnswer a = decode(200, R"({"status":"success","data":{"resultType":"matrix","result":[]}})");
        QVERIFY(a.ok());
        QVERIFY(a.series.empty());
    }

    // What Prometheus 2.42 itself answered (captured from the real server scraping pdsim).
    void realAnswers()
    {
        const PromApiAnswer detect = decode(200, fixture(QStringLiteral("detect-two-generations.json")));
        QVERIFY2(detect.ok(), qPrintable(detect.error));
        QCOMPARE(detect.resultType, PromResultType::Vector);
        QVERIFY(detect.series.size() >= 4);
        const PromApiAnswer raw = decode(200, fixture(QStringLiteral("raw-samples.json")));
        QVERIFY2(raw.ok(), qPrintable(raw.error));
        QCOMPARE(raw.resultType, PromResultType::Matrix);
        QVERIFY(!raw.series.empty());
        for (const PromSeries &s : raw.series) {
            QVERIFY(!s.label("__name__").empty());
            QVERIFY(!s.points.empty());
        }
        const PromApiAnswer bad = decode(400, fixture(QStringLiteral("error-bad-data.json")));
        QCOMPARE(bad.outcome, Outcome::ApiError);
        QCOMPARE(bad.errorType, QStringLiteral("bad_data"));
        QVERIFY2(bad.error.contains(QLatin1String("parse error")), qPrintable(bad.error));
        QVERIFY2(bad.error.startsWith(QLatin1String("HTTP 400")), qPrintable(bad.error));
    }

    void targets()
    {
        const QByteArray body = fixture(QStringLiteral("targets.json"));
        const PromTargetsAnswer a
            = decodePromTargetsAnswer(200, std::string_view(body.constData(), std::size_t(body.size())));
        QVERIFY2(a.ok(), qPrintable(a.error));
        QVERIFY(a.targets.size() >= 2);
        bool down = false;
        for (const PromTarget &t : a.targets) {
            QVERIFY(!t.label("instance").empty());
            QCOMPARE(t.scrapeIntervalMs, qint64(1000));
            QVERIFY(t.lastScrapeMs > 1'700'000'000'000); // Go's nanosecond timestamps read
            if (t.health == "down") {
                down = true;
                QVERIFY2(t.lastError.find("connection refused") != std::string::npos, t.lastError.c_str());
            }
        }
        QVERIFY(down);
    }

    void malformed_data()
    {
        QTest::addColumn<int>("http");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("mentions"); // what the error must name

        const int M = int(Outcome::Malformed);
        // A 200 answer whose data.result holds `series` of `type`, malformed as the row's name says.
        auto badSeries = [M](const char *name, const char *type, const char *series, const char *mentions) {
            const QByteArray body = QByteArray("{\"status\":\"success\",\"data\":{\"resultType\":\"") + type
                + "\",\"result\":[" + series + "]}}";
            QTest::newRow(name) << 200 << body << M << QString::fromUtf8(mentions);
        };
        QTest::newRow("not JSON") << 200 << QByteArray("<html>login</html>") << M
                                  << QStringLiteral("not JSON at byte 1");
        QTest::newRow("empty") << 200 << QByteArray() << M << QStringLiteral("empty answer");
        QTest::newRow("truncated") << 200 << QByteArray("{\"status\":\"success\",\"data\":{\"resultType\":\"vec") << M
                                   << QStringLiteral("not JSON");
        QTest::newRow("HTML 502 from a proxy")
            << 502 << QByteArray("<html>Bad Gateway</html>") << int(Outcome::Http) << QStringLiteral("HTTP 502");
        QTest::newRow("array") << 200 << QByteArray("[]") << M << QStringLiteral("answer: expected an object");
        QTest::newRow("no status") << 200 << QByteArray(R"({"data":{}})") << M << QStringLiteral("no \"status\"");
        QTest::newRow("odd status") << 200 << QByteArray(R"({"status":"ok","data":{}})") << M
                                    << QStringLiteral("expected \"success\" or \"error\"");
        QTest::newRow("no data") << 200 << QByteArray(R"({"status":"success"})") << M << QStringLiteral("no \"data\"");
        QTest::newRow("unknown resultType")
            << 200 << QByteArray(R"({"status":"success","data":{"resultType":"table","result":[]}})") << M
            << QStringLiteral("data.resultType: unknown result type \"table\"");
        badSeries("vector says matrix", "vector", R"({"metric":{},"values":[[1,"2"]]})",
            "data.result[0]: \"values\" in a vector");
        badSeries("matrix says vector", "matrix", R"({"metric":{},"value":[1,"2"]})",
            "data.result[0]: a \"value\" in a matrix");
        badSeries("number value", "matrix", R"({"metric":{},"values":[[1,"2"],[2,3]]})",
            "data.result[0].values[1][1]: expected a sample value as a string, found number 3");
        badSeries("bad value text", "vector", R"({"metric":{},"value":[1,"12abc"]})",
            "data.result[0].value[1]: \"12abc\" is not a sample value");
        badSeries("string time", "vector", R"({"metric":{},"value":["1","1"]})",
            "data.result[0].value[0]: expected a time in seconds");
        badSeries("label not a string", "vector", R"({"metric":{"instance":9000},"value":[1,"1"]})",
            "data.result[0].metric.instance: expected a string");
        badSeries("time going back", "matrix", R"({"metric":{},"values":[[2,"1"],[1,"1"]]})",
            "data.result[0].values[1]: time does not increase");
        badSeries("point of three", "vector", R"({"metric":{},"value":[1,"1",2]})",
            "data.result[0].value: expected [time, \"value\"]");
        QTest::newRow("warnings not an array")
            << 200 << QByteArray(R"({"status":"success","warnings":"x","data":{"resultType":"vector","result":[]}})")
            << M << QStringLiteral("warnings: expected an array");
        QTest::newRow("status error")
            << 422
            << QByteArray(
                   R"({"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"})")
            << int(Outcome::ApiError)
            << QStringLiteral("HTTP 422, execution: query processing would load too many samples");
        QTest::newRow("status error, no type") << 200 << QByteArray(R"({"status":"error"})") << int(Outcome::ApiError)
                                               << QStringLiteral("(no error message)");
        QTest::newRow("success with HTTP 500")
            << 500 << QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[]}})") << M
            << QStringLiteral("status success with HTTP 500");
    }

    void malformed()
    {
        QFETCH(int, http);
        QFETCH(QByteArray, body);
        QFETCH(int, outcome);
        QFETCH(QString, mentions);
        const PromApiAnswer a = decode(http, body);
        QCOMPARE(int(a.outcome), outcome);
        QVERIFY2(a.error.contains(mentions), qPrintable(a.error));
        QVERIFY(a.series.empty());
        QCOMPARE(a.httpStatus, http);
    }

    void values_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("value");
        QTest::newRow("int") << "42" << true << 42.0;
        QTest::newRow("float") << "0.390625" << true << 0.390625;
        QTest::newRow("exp") << "1.6346498e+07" << true << 1.6346498e+07;
        QTest::newRow("negative") << "-3" << true << -3.0;
        QTest::newRow("empty") << "" << false << 0.0;
        QTest::newRow("words") << "one" << false << 0.0;
        QTest::newRow("overflow") << "1e999" << false << 0.0;
    }

    void values()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, value);
        double v = 0;
        const std::string s = text.toStdString();
        QCOMPARE(parsePromApiValue(s, v), ok);
        if (ok)
            QCOMPARE(v, value);
    }

    void durations()
    {
        QCOMPARE(parsePromDurationMs("1s"), qint64(1000));
        QCOMPARE(parsePromDurationMs("15s"), qint64(15000));
        QCOMPARE(parsePromDurationMs("1m30s"), qint64(90000));
        QCOMPARE(parsePromDurationMs("500ms"), qint64(500));
        QCOMPARE(parsePromDurationMs("2h"), qint64(7200000));
        QCOMPARE(parsePromDurationMs("1m"), qint64(60000));
        QCOMPARE(parsePromDurationMs(""), qint64(0));
        QCOMPARE(parsePromDurationMs("15"), qint64(0));
        QCOMPARE(parsePromDurationMs("5x"), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestPromApiAnswer)
#include "tst_promapianswer.moc"
