// SPDX-License-Identifier: MIT
// The simulated proxy's logic without sockets: command line of both generations, the scheduler of
// spec §5, the /instances/* decisions and texts of §2.2-2.3, the decoder read rewrite of §2.5.
#include "proxy/completionrelay.h"
#include "proxy/instanceadmin.h"
#include "proxy/proxyoptions.h"
#include "proxy/proxyscheduler.h"
#include "proxy/proxytext.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>

using namespace pd::sim;

namespace {

QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QStringList names(const QList<BackendAddress> &list)
{
    QStringList out;
    for (const BackendAddress &a : list)
        out << a.displayName();
    return out;
}

ProxyScheduler schedulerWith(const QStringList &prefill, const QStringList &decode)
{
    ProxyScheduler s;
    for (const QString &p : prefill)
        s.addServer(ProxyRole::Prefill, {p.section(QLatin1Char(':'), 0, 0), p.section(QLatin1Char(':'), 1).toInt()});
    for (const QString &d : decode)
        s.addServer(ProxyRole::Decode, {d.section(QLatin1Char(':'), 0, 0), d.section(QLatin1Char(':'), 1).toInt()});
    return s;
}

QByteArray json(const char *text)
{
    return QByteArray(text);
}

} // namespace

class TestSimProxyLogic final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void options_data();
    void options();
    void seed000Expansion();
    void mainListsAndDefaults();
    void pythonText();
    void identity_data();
    void identity();
    void sequentialTrafficGoesToFirst();
    void concurrentTrafficSpreads();
    void prefillPriorityIsKvWeighted();
    void taintedIsLastResort();
    void heapStaysBounded();
    void admin_data();
    void admin();
    void addSkipsPoolAndWaiting();
    void busyRemoveTaintsAndDrains();
    void waitingTaintedIsTheCrashCase();
    void prefillBody();
    void decoderRead_data();
    void decoderRead();
    void command_data();
    void command();
};

void TestSimProxyLogic::options_data()
{
    QTest::addColumn<QString>("generation");
    QTest::addColumn<QString>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("errorPart");
    QTest::addColumn<QString>("prefillers");
    QTest::addColumn<QString>("decoders");

    QTest::newRow("defaults") << "main" << "" << 0 << "" << "localhost:8001" << "localhost:8002";
    QTest::newRow("main lists") << "main"
        << "--prefiller-hosts 127.0.0.1 127.0.0.1 --prefiller-ports 9100 9101 --decoder-hosts h --decoder-ports 9200"
        << 0 << "" << "127.0.0.1:9100 127.0.0.1:9101" << "h:9200";
    QTest::newRow("hosts-num on main") << "main" << "--prefiller-hosts-num 2" << 2
        << "error: unrecognized arguments: --prefiller-hosts-num 2" << "" << "";
    QTest::newRow("ports-inc on main") << "main" << "--decoder-ports-inc 16 16" << 2
        << "error: unrecognized arguments: --decoder-ports-inc 16 16" << "" << "";
    QTest::newRow("unknown flag") << "main" << "--bogus" << 2 << "unrecognized arguments: --bogus" << "" << "";
    QTest::newRow("stray word") << "main" << "--port 1 extra" << 2 << "unrecognized arguments: extra" << "" << "";
    QTest::newRow("bad int") << "main" << "--port abc" << 2 << "argument --port: invalid int value: 'abc'" << "" << "";
    QTest::newRow("bad float") << "main" << "--retry-delay x" << 2 << "argument --retry-delay: invalid float value: 'x'" << "" << "";
    QTest::newRow("missing value") << "main" << "--port" << 2 << "argument --port: expected one argument" << "" << "";
    QTest::newRow("empty list") << "main" << "--prefiller-hosts --port 1" << 2
        << "argument --prefiller-hosts: expected at least one argument" << "" << "";
    QTest::newRow("bad level") << "main" << "--log-level info" << 2 << "argument --log-level: invalid choice: 'info'" << "" << "";
    QTest::newRow("ambiguous") << "main" << "--prefiller 1" << 2 << "ambiguous option: --prefiller could match" << "" << "";
    QTest::newRow("prefix abbreviation") << "main" << "--prefiller-p 7000" << 0 << "" << "localhost:7000" << "localhost:8002";
    QTest::newRow("prefill length mismatch") << "main" << "--prefiller-hosts a b --prefiller-ports 1" << 1
        << "ValueError: Number of prefiller hosts must match number of prefiller ports" << "" << "";
    QTest::newRow("decode length mismatch") << "main" << "--decoder-ports 1 2" << 1
        << "ValueError: Number of decoder hosts must match number of decoder ports" << "" << "";
    QTest::newRow("waiting flags not in v0.9.1-dev") << "v0.9.1-dev" << "--waiting-retry-interval 1" << 2
        << "unrecognized arguments: --waiting-retry-interval 1" << "" << "";
    QTest::newRow("v0.9.1 expansion") << "v0.9.1-dev"
        << "--prefiller-hosts a b --prefiller-hosts-num 2 1 --prefiller-ports 10 20 --prefiller-ports-inc 2 1"
        << 0 << "" << "a:10 a:11 b:20" << "localhost:8002";
    QTest::newRow("v0.9.1 truncation num 3 inc 2") << "v0.9.1-dev"
        << "--prefiller-hosts a --prefiller-hosts-num 3 --prefiller-ports 10 --prefiller-ports-inc 2"
        << 0 << "" << "a:10 a:11" << "localhost:8002";
    QTest::newRow("v0.9.1 num without inc") << "v0.9.1-dev"
        << "--decoder-hosts d --decoder-hosts-num 3 --decoder-ports 50"
        << 0 << "" << "localhost:8001" << "d:50";
    QTest::newRow("v0.9.1 hosts/ports checked before expansion") << "v0.9.1-dev"
        << "--prefiller-hosts a b --prefiller-hosts-num 2 2 --prefiller-ports 10 --prefiller-ports-inc 4"
        << 1 << "ValueError: Number of prefiller hosts must match number of prefiller ports" << "" << "";
}

void TestSimProxyLogic::options()
{
    QFETCH(QString, generation);
    QFETCH(QString, args);
    QFETCH(int, exitCode);
    QFETCH(QString, errorPart);
    QFETCH(QString, prefillers);
    QFETCH(QString, decoders);
    QStringList arguments = args.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    arguments << QStringLiteral("--generation") << generation;
    QString error;
    int code = -1;
    const auto options = ProxyOptions::fromArguments(arguments, &error, &code);
    QCOMPARE(code, exitCode);
    if (exitCode != 0) {
        QVERIFY(!options);
        QVERIFY2(error.contains(errorPart), qPrintable(error));
        return;
    }
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(names(options->prefillers).join(QLatin1Char(' ')), prefillers);
    QCOMPARE(names(options->decoders).join(QLatin1Char(' ')), decoders);
}

void TestSimProxyLogic::seed000Expansion()
{
    // Spec §4.1 worked example (the 8-node guide's command line).
    const QStringList args = words(
        "--generation v0.9.1-dev --prefiller-hosts 192.0.0.1 192.0.0.2 192.0.0.3 192.0.0.4 --prefiller-hosts-num 2 2 2 2 "
        "--prefiller-ports 9000 9000 9000 9000 --prefiller-ports-inc 2 2 2 2 --decoder-hosts 192.0.0.5 192.0.0.6 "
        "192.0.0.7 192.0.0.8 --decoder-hosts-num 16 16 16 16 --decoder-ports 9000 9000 9000 9000 "
        "--decoder-ports-inc 16 16 16 16");
    QString error;
    const auto options = ProxyOptions::fromArguments(args, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->generation, ProxyGeneration::V091Dev);
    QStringList expectedP;
    for (int node = 1; node <= 4; ++node)
        for (int i = 0; i < 2; ++i)
            expectedP << QStringLiteral("192.0.0.%1:%2").arg(node).arg(9000 + i);
    QStringList expectedD;
    for (int node = 5; node <= 8; ++node)
        for (int i = 0; i < 16; ++i)
            expectedD << QStringLiteral("192.0.0.%1:%2").arg(node).arg(9000 + i);
    QCOMPARE(names(options->prefillers), expectedP);
    QCOMPARE(names(options->decoders), expectedD);
    QCOMPARE(options->decoders.size(), 64);

    // The same flags on a main proxy: exit 2.
    QStringList mainArgs = args.mid(2);
    int code = 0;
    QVERIFY(!ProxyOptions::fromArguments(mainArgs, &error, &code));
    QCOMPARE(code, 2);
    QVERIFY(error.contains(QLatin1String("unrecognized arguments: --prefiller-hosts-num 2 2 2 2")));

    // Insertion order is the pool order and the tie-break order.
    ProxyScheduler s;
    for (const auto &a : options->prefillers)
        s.addServer(ProxyRole::Prefill, a);
    for (const auto &a : options->decoders)
        s.addServer(ProxyRole::Decode, a);
    QCOMPARE(s.instances(ProxyRole::Decode), expectedD);
    const auto p = s.beginRequest(200);
    QVERIFY(p);
    QCOMPARE(p->address.displayName(), QStringLiteral("192.0.0.1:9000"));
}

void TestSimProxyLogic::mainListsAndDefaults()
{
    QString error;
    const auto o = ProxyOptions::fromArguments(words("--host 127.0.0.1 --port=0 --max-retries 0 --retry-delay 0.5 "
                                                     "--max-waiting-retries 5 --waiting-retry-interval 0.2 --workers 2 "
                                                     "--log-level DEBUG --no-defect-listener-crash --no-defect-empty-200 "
                                                     "--backend-timeout 3"), &error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->host, QStringLiteral("127.0.0.1"));
    QCOMPARE(o->port, 0);
    QCOMPARE(o->maxRetries, 0);
    QCOMPARE(o->retryDelay, 0.5);
    QCOMPARE(o->maxWaitingRetries, 5);
    QCOMPARE(o->waitingRetryInterval, 0.2);
    QCOMPARE(o->workers, 2);
    QCOMPARE(o->logLevel, QStringLiteral("DEBUG"));
    QVERIFY(!o->listenerCrashDefect);
    QVERIFY(!o->emptyOkOnDecoderFailure);
    QCOMPARE(o->backendTimeout, 3.0);
    const auto d = ProxyOptions::fromArguments({}, &error);
    QVERIFY(d);
    QCOMPARE(d->port, 8000);
    QCOMPARE(d->host, QStringLiteral("localhost"));
    QCOMPARE(d->maxRetries, 3);
    QCOMPARE(d->maxWaitingRetries, 3);
    QCOMPARE(d->waitingRetryInterval, 10.0);
    QVERIFY(d->listenerCrashDefect);
    QVERIFY(d->emptyOkOnDecoderFailure);
}

void TestSimProxyLogic::pythonText()
{
    QCOMPARE(pythonListRepr({}), QStringLiteral("[]"));
    QCOMPARE(pythonListRepr({QStringLiteral("127.0.0.1:9200"), QStringLiteral("127.0.0.1:9202")}),
             QStringLiteral("['127.0.0.1:9200', '127.0.0.1:9202']"));
    QCOMPARE(pythonRepr(QStringLiteral("it's")), QStringLiteral("\"it's\""));
    QCOMPARE(pythonRepr(QStringLiteral("a'\"b")), QStringLiteral("'a\\'\"b'"));
    QCOMPARE(pythonStr(OrderedJson()), QStringLiteral("None"));
    QCOMPARE(pythonStr(OrderedJson(true)), QStringLiteral("True"));
    QCOMPARE(pythonStr(OrderedJson("Prefill")), QStringLiteral("Prefill"));
    QCOMPARE(pythonStr(OrderedJson::array({"a", 1})), QStringLiteral("['a', 1]"));
    QCOMPARE(pythonJsonDumps(OrderedJson::parse(R"({"a":[1,2],"b":{"c":null}})")),
             QByteArray(R"({"a": [1, 2], "b": {"c": null}})"));
    QCOMPARE(compactJson(OrderedJson::parse(R"({"b": 1, "a": "é"})")), QByteArray(R"({"b":1,"a":"é"})"));
}

void TestSimProxyLogic::identity_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("key");
    QTest::newRow("127.0.0.1") << "127.0.0.1" << "0.0.0.0:9202";
    QTest::newRow("localhost") << "localhost" << "0.0.0.0:9202";
    QTest::newRow("0.0.0.0") << "0.0.0.0" << "0.0.0.0:9202";
    QTest::newRow("other ip") << "127.0.0.2" << "127.0.0.2:9202";
    QTest::newRow("dns name") << "node-1" << "node-1:9202";
    QTest::newRow("substring replace") << "127.0.0.10" << "0.0.0.00:9202";
}

void TestSimProxyLogic::identity()
{
    QFETCH(QString, host);
    QFETCH(QString, key);
    QCOMPARE(instanceKey(host, 9202), key);
}

void TestSimProxyLogic::sequentialTrafficGoesToFirst()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("h:1"), QStringLiteral("h:2")},
                                     {QStringLiteral("h:3"), QStringLiteral("h:4"), QStringLiteral("h:5")});
    for (int i = 0; i < 20; ++i) {
        const double ps = ProxyScheduler::prefillScore(100 + i);
        const double ds = ProxyScheduler::decodeScore(100 + i);
        const auto p = s.beginRequest(ps);
        QVERIFY(p);
        QCOMPARE(p->key, QStringLiteral("h:1"));
        QCOMPARE(s.requestCount(), 1);
        const auto d = s.pickDecoder(ds);
        QVERIFY(d);
        QCOMPARE(d->key, QStringLiteral("h:3"));
        s.releasePrefill(p->key, ps);
        s.releaseDecoder(d->key, ds);
        s.endRequest();
        QCOMPARE(s.requestCount(), 0);
        QCOMPARE(s.priority(ProxyRole::Prefill, QStringLiteral("h:1")), 0.0);
        QCOMPARE(s.priority(ProxyRole::Decode, QStringLiteral("h:3")), 0.0);
    }
}

void TestSimProxyLogic::concurrentTrafficSpreads()
{
    // Spec §5.2 [T]: 6 parallel equal requests over 3 decoders 2/2/2 by score... with equal bodies each
    // pick goes to the least loaded, ties by ordinal.
    ProxyScheduler s = schedulerWith({QStringLiteral("h:1"), QStringLiteral("h:2")},
                                     {QStringLiteral("h:3"), QStringLiteral("h:4"), QStringLiteral("h:5")});
    QStringList ps;
    QStringList ds;
    for (int i = 0; i < 6; ++i) {
        ps << s.beginRequest(ProxyScheduler::prefillScore(100))->key;
        ds << s.pickDecoder(ProxyScheduler::decodeScore(100))->key;
    }
    QCOMPARE(ps, words("h:1 h:2 h:1 h:2 h:1 h:2"));
    QCOMPARE(ds, words("h:3 h:4 h:5 h:3 h:4 h:5"));
    QCOMPARE(s.requestCount(), 6);
}

void TestSimProxyLogic::prefillPriorityIsKvWeighted()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("h:1")}, {QStringLiteral("h:3")});
    const double score = ProxyScheduler::prefillScore(400);
    QCOMPARE(score, 100 * 0.0345 + 120.0745);
    s.beginRequest(score);
    QCOMPARE(s.priority(ProxyRole::Prefill, QStringLiteral("h:1")), 0.3 * score);
    s.pickDecoder(ProxyScheduler::decodeScore(400));
    QCOMPARE(s.priority(ProxyRole::Decode, QStringLiteral("h:3")), 400.0);
    s.releasePrefill(QStringLiteral("h:1"), score * 2); // clamped at 0
    QCOMPARE(s.priority(ProxyRole::Prefill, QStringLiteral("h:1")), 0.0);
}

void TestSimProxyLogic::taintedIsLastResort()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("h:1")}, {QStringLiteral("h:3"), QStringLiteral("h:4")});
    s.beginRequest(1);
    s.taint(ProxyRole::Decode, {QStringLiteral("h:3")});
    QCOMPARE(s.priority(ProxyRole::Decode, QStringLiteral("h:3")), ProxyScheduler::kTaintedPriority);
    QCOMPARE(s.pickDecoder(1000)->key, QStringLiteral("h:4"));
    QCOMPARE(s.pickDecoder(1000)->key, QStringLiteral("h:4")); // 2000 < 1e15
    s.taint(ProxyRole::Decode, {QStringLiteral("h:4")});
    QCOMPARE(s.pickDecoder(1)->key, QStringLiteral("h:3")); // all tainted: tie by ordinal
    QCOMPARE(s.instanceCount(ProxyRole::Decode), 2);
}

void TestSimProxyLogic::heapStaysBounded()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("h:1"), QStringLiteral("h:2")}, {QStringLiteral("h:3")});
    for (int i = 0; i < 1000; ++i) {
        const auto p = s.beginRequest(10);
        s.releasePrefill(p->key, 10);
        s.endRequest();
        QVERIFY(s.heapSize(ProxyRole::Prefill) <= 2 * 2 + 1);
    }
}

void TestSimProxyLogic::admin_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("busy");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("response");

    const QByteArray lists = R"("current_prefill_instances":["127.0.0.1:9100","127.0.0.1:9101"],"current_decode_instances":["127.0.0.1:9200","127.0.0.1:9201"]})";
    QTest::newRow("add new") << "add" << json(R"({"type":"decode","instances":["127.0.0.1:9202"]})") << false << 200
        << R"({"message":"Instances ['127.0.0.1:9202'] are waiting to be added.",)" + lists;
    QTest::newRow("add bare string") << "add" << json(R"({"type":"prefill","instances":"127.0.0.1:9102"})") << false << 200
        << R"({"message":"Instances ['127.0.0.1:9102'] are waiting to be added.",)" + lists;
    QTest::newRow("add duplicate alias") << "add" << json(R"({"type":"decode","instances":["localhost:9200"]})") << false << 200
        << R"({"message":"add decode instances: ['localhost:9200'].",)" + lists;
    QTest::newRow("add only new listed") << "add" << json(R"({"type":"decode","instances":["127.0.0.1:9200","127.0.0.1:9203"]})") << false << 200
        << R"({"message":"Instances ['127.0.0.1:9203'] are waiting to be added.",)" + lists;
    QTest::newRow("add same pair twice") << "add" << json(R"({"type":"decode","instances":["h:1","h:1"]})") << false << 200
        << R"({"message":"Instances ['h:1'] are waiting to be added.",)" + lists;
    QTest::newRow("add no instances key") << "add" << json(R"({"type":"decode"})") << false << 200
        << R"({"message":"add decode instances: [].",)" + lists;
    QTest::newRow("add P address as decode is new") << "add" << json(R"({"type":"decode","instances":"127.0.0.1:9100"})") << false << 200
        << R"({"message":"Instances ['127.0.0.1:9100'] are waiting to be added.",)" + lists;
    QTest::newRow("wrong type") << "add" << json(R"({"type":"decoder","instances":["127.0.0.1:9203"]})") << false << 200
        << QByteArray(R"({"error":"Instance type 'decoder' is not supported. Only 'prefill' and 'decode' are allowed."})");
    QTest::newRow("missing type") << "add" << json(R"({"instances":[]})") << false << 200
        << QByteArray(R"({"error":"Instance type 'None' is not supported. Only 'prefill' and 'decode' are allowed."})");
    QTest::newRow("capitalised type") << "remove" << json(R"({"type":"Prefill"})") << false << 200
        << QByteArray(R"({"error":"Instance type 'Prefill' is not supported. Only 'prefill' and 'decode' are allowed."})");
    QTest::newRow("no port") << "add" << json(R"({"type":"decode","instances":["127.0.0.1"]})") << false << 500
        << QByteArray("Internal Server Error");
    QTest::newRow("three parts") << "add" << json(R"({"type":"decode","instances":["h:1:x"]})") << false << 500
        << QByteArray("Internal Server Error");
    QTest::newRow("ipv6") << "add" << json(R"({"type":"decode","instances":["[::1]:9000"]})") << false << 500
        << QByteArray("Internal Server Error");
    QTest::newRow("port not int") << "remove" << json(R"({"type":"decode","instances":["h:x"]})") << false << 500
        << QByteArray("Internal Server Error");
    QTest::newRow("malformed beats bad type") << "add" << json(R"({"type":"decoder","instances":["h"]})") << false << 500
        << QByteArray("Internal Server Error");
    QTest::newRow("not json") << "add" << json("type=decode") << false << 500 << QByteArray("Internal Server Error");
    QTest::newRow("json list") << "add" << json("[1]") << false << 500 << QByteArray("Internal Server Error");
    QTest::newRow("instances number") << "add" << json(R"({"type":"decode","instances":5})") << false << 500
        << QByteArray("Internal Server Error");
    QTest::newRow("remove idle") << "remove" << json(R"({"type":"decode","instances":"127.0.0.1:9201"})") << false << 200
        << QByteArray(R"({"message":"remove decode instances: ['127.0.0.1:9201'].","current_prefill_instances":["127.0.0.1:9100","127.0.0.1:9101"],"current_decode_instances":["127.0.0.1:9200"]})");
    QTest::newRow("remove alias") << "remove" << json(R"({"type":"decode","instances":["localhost:9200"]})") << false << 200
        << QByteArray(R"({"message":"remove decode instances: ['localhost:9200'].","current_prefill_instances":["127.0.0.1:9100","127.0.0.1:9101"],"current_decode_instances":["127.0.0.1:9201"]})");
    QTest::newRow("remove unknown") << "remove" << json(R"({"type":"decode","instances":["127.0.0.1:9555"]})") << false << 200
        << R"({"message":"remove decode instances: ['127.0.0.1:9555'].",)" + lists;
    QTest::newRow("remove wrong role") << "remove" << json(R"({"type":"prefill","instances":["127.0.0.1:9200"]})") << false << 200
        << R"({"message":"remove prefill instances: ['127.0.0.1:9200'].",)" + lists;
    QTest::newRow("remove both decoders") << "remove" << json(R"({"type":"decode","instances":["127.0.0.1:9200","127.0.0.1:9201"]})") << false << 200
        << QByteArray(R"({"message":"remove decode instances: ['127.0.0.1:9200', '127.0.0.1:9201'].","current_prefill_instances":["127.0.0.1:9100","127.0.0.1:9101"],"current_decode_instances":[]})");
    QTest::newRow("remove busy") << "remove" << json(R"({"type":"decode","instances":"127.0.0.1:9201"})") << true << 200
        << R"({"message":"Instances ['127.0.0.1:9201'] are isolated and waiting to be removed.",)" + lists;
}

void TestSimProxyLogic::admin()
{
    QFETCH(QString, endpoint);
    QFETCH(QByteArray, body);
    QFETCH(bool, busy);
    QFETCH(int, status);
    QFETCH(QByteArray, response);
    ProxyScheduler s = schedulerWith({QStringLiteral("127.0.0.1:9100"), QStringLiteral("127.0.0.1:9101")},
                                     {QStringLiteral("127.0.0.1:9200"), QStringLiteral("127.0.0.1:9201")});
    if (busy)
        s.beginRequest(1);
    const AdminReply reply = endpoint == QLatin1String("add") ? InstanceAdmin::add(s, body) : InstanceAdmin::remove(s, body);
    QCOMPARE(reply.status, status);
    QCOMPARE(reply.body, response);
    QCOMPARE(reply.contentType, status == 500 ? QByteArray("text/plain; charset=utf-8") : QByteArray("application/json"));
}

void TestSimProxyLogic::addSkipsPoolAndWaiting()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("127.0.0.1:9100")}, {QStringLiteral("127.0.0.1:9200")});
    InstanceAdmin::add(s, R"({"type":"decode","instances":["127.0.0.1:9202"]})");
    QVERIFY(s.isWaiting(QStringLiteral("0.0.0.0:9202")));
    QCOMPARE(s.instanceCount(ProxyRole::Decode), 1); // nothing added synchronously
    // Waiting in one role blocks the other role too.
    const AdminReply again = InstanceAdmin::add(s, R"({"type":"prefill","instances":["localhost:9202"]})");
    QVERIFY(again.body.startsWith(R"({"message":"add prefill instances: ['localhost:9202'].")"));
    QCOMPARE(s.activate(QStringLiteral("0.0.0.0:9202")), ProxyScheduler::Activation::Activated);
    QCOMPARE(s.instances(ProxyRole::Decode), words("127.0.0.1:9200 127.0.0.1:9202"));
    // Re-added after removal: a new, higher ordinal (end of the tie-break order).
    InstanceAdmin::remove(s, R"({"type":"decode","instances":["127.0.0.1:9200"]})");
    InstanceAdmin::add(s, R"({"type":"decode","instances":["127.0.0.1:9200"]})");
    s.activate(QStringLiteral("0.0.0.0:9200"));
    QCOMPARE(s.instances(ProxyRole::Decode), words("127.0.0.1:9202 127.0.0.1:9200"));
    s.beginRequest(1);
    QCOMPARE(s.pickDecoder(1)->key, QStringLiteral("0.0.0.0:9202"));
    // Idle removal of a waiting key forgets it.
    InstanceAdmin::add(s, R"({"type":"decode","instances":["h:7"]})");
    s.endRequest();
    InstanceAdmin::remove(s, R"({"type":"decode","instances":["h:7"]})");
    QVERIFY(!s.isWaiting(QStringLiteral("h:7")));
}

void TestSimProxyLogic::busyRemoveTaintsAndDrains()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("127.0.0.1:9100")}, {QStringLiteral("127.0.0.1:9200"), QStringLiteral("127.0.0.1:9201")});
    const auto p = s.beginRequest(5);
    const AdminReply reply = InstanceAdmin::remove(s, R"({"type":"decode","instances":["127.0.0.1:9201"]})");
    QCOMPARE(reply.logLines, QStringList{QStringLiteral("Start to taint decode instances ['0.0.0.0:9201'].")});
    QVERIFY(s.isTainted(ProxyRole::Decode, QStringLiteral("0.0.0.0:9201")));
    QCOMPARE(s.instanceCount(ProxyRole::Decode), 2);
    // Re-adding a draining instance does not cancel the drain.
    const AdminReply readd = InstanceAdmin::add(s, R"({"type":"decode","instances":["127.0.0.1:9201"]})");
    QVERIFY(readd.body.startsWith(R"({"message":"add decode instances: ['127.0.0.1:9201'].")"));
    QVERIFY(s.isTainted(ProxyRole::Decode, QStringLiteral("0.0.0.0:9201")));
    QVERIFY(s.finalizeDrain(ProxyRole::Decode).isEmpty()); // busy: nothing happens
    s.releasePrefill(p->key, 5);
    s.endRequest();
    QCOMPARE(s.finalizeDrain(ProxyRole::Decode), QStringList{QStringLiteral("0.0.0.0:9201")});
    QCOMPARE(s.instances(ProxyRole::Decode), QStringList{QStringLiteral("127.0.0.1:9200")});
}

void TestSimProxyLogic::waitingTaintedIsTheCrashCase()
{
    ProxyScheduler s = schedulerWith({QStringLiteral("127.0.0.1:9100")}, {QStringLiteral("127.0.0.1:9200")});
    InstanceAdmin::add(s, R"({"type":"decode","instances":["127.0.0.1:9202"]})");
    s.beginRequest(1);
    InstanceAdmin::remove(s, R"({"type":"decode","instances":["127.0.0.1:9202"]})");
    QVERIFY(s.isWaiting(QStringLiteral("0.0.0.0:9202")));
    QCOMPARE(s.activate(QStringLiteral("0.0.0.0:9202")), ProxyScheduler::Activation::TaintedNotInPool);
    QVERIFY(s.isWaiting(QStringLiteral("0.0.0.0:9202"))); // stuck
    QCOMPARE(s.instanceCount(ProxyRole::Decode), 1);
    s.dropTaintedWaiting(QStringLiteral("0.0.0.0:9202")); // the fixed behaviour
    QVERIFY(!s.isWaiting(QStringLiteral("0.0.0.0:9202")));
    QVERIFY(!s.isTainted(ProxyRole::Decode, QStringLiteral("0.0.0.0:9202")));
}

void TestSimProxyLogic::prefillBody()
{
    const auto original = OrderedJson::parse(R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":4,"stream":true,"stream_options":{"include_usage":true}})");
    QCOMPARE(compactJson(CompletionRelay::prefillBody(original, ProxyGeneration::Main)),
             QByteArray(R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":1,"stream":false,"kv_transfer_params":{"do_remote_decode":true,"do_remote_prefill":false,"remote_engine_id":null,"remote_block_ids":null,"remote_host":null,"remote_port":null},"min_tokens":1})"));
    const auto chat = OrderedJson::parse(R"({"messages":[{"role":"user","content":"hi"}],"max_completion_tokens":9})");
    const auto body = CompletionRelay::prefillBody(chat, ProxyGeneration::Main);
    QVERIFY(body["max_completion_tokens"] == 1);
    QVERIFY(body["max_tokens"] == 1);
    QVERIFY(!CompletionRelay::prefillBody(chat, ProxyGeneration::V091Dev).contains("min_tokens"));
}

void TestSimProxyLogic::decoderRead_data()
{
    QTest::addColumn<QByteArray>("read");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<bool>("indexError");
    QTest::newRow("non-stream rewrite") << QByteArray(R"({"id":"c","choices":[{"text":"a"}],"usage":{"prompt_tokens":4,"prompt_tokens_details":{"cached_tokens":0}}})")
        << false << QByteArray(R"({"id": "c", "choices": [{"text": "a"}], "usage": {"prompt_tokens": 4, "prompt_tokens_details": {"cached_tokens": 7}}})") << false;
    QTest::newRow("non-stream partial read") << QByteArray(R"({"id":"c","cho)") << false << QByteArray(R"({"id":"c","cho)") << false;
    QTest::newRow("token event") << QByteArray("data: {\"choices\":[{\"text\":\"a\"}]}\n\n") << true
        << QByteArray("data: {\"choices\":[{\"text\":\"a\"}]}\n\n") << false;
    QTest::newRow("usage event") << QByteArray("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4}}\n\n") << true
        << QByteArray("data: {\"choices\": [], \"usage\": {\"prompt_tokens\": 4, \"prompt_tokens_details\": {\"cached_tokens\": 7}}}\n\n") << false;
    QTest::newRow("usage coalesced with done") << QByteArray("data: {\"choices\":[],\"usage\":{}}\n\ndata: [DONE]\n\n") << true
        << QByteArray("data: {\"choices\":[],\"usage\":{}}\n\ndata: [DONE]\n\n") << false;
    QTest::newRow("done") << QByteArray("data: [DONE]\n\n") << true << QByteArray("data: [DONE]\n\n") << false;
    QTest::newRow("lone error event") << QByteArray("data: {\"error\":{\"message\":\"boom\"}}\n\n") << true << QByteArray() << true;
    QTest::newRow("error event coalesced") << QByteArray("data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {\"error\":{}}\n\n") << true
        << QByteArray("data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {\"error\":{}}\n\n") << false;
}

void TestSimProxyLogic::decoderRead()
{
    QFETCH(QByteArray, read);
    QFETCH(bool, stream);
    QFETCH(QByteArray, expected);
    QFETCH(bool, indexError);
    const auto result = CompletionRelay::processDecoderRead(read, stream, 7);
    QCOMPARE(result.indexError, indexError);
    if (!indexError)
        QCOMPARE(result.bytes, expected);
}

void TestSimProxyLogic::command_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrPart");
    QTest::newRow("v0.9.1 flag on main") << "--prefiller-hosts-num 2" << 2
        << "pdsim proxy: error: unrecognized arguments: --prefiller-hosts-num 2";
    QTest::newRow("length mismatch") << "--decoder-hosts a b --decoder-ports 1" << 1
        << "ValueError: Number of decoder hosts must match number of decoder ports";
    QTest::newRow("help") << "--help" << 0 << "";
    QTest::newRow("bind failure") << "--host 256.1.1.1" << 1 << "error while attempting to bind";
}

void TestSimProxyLogic::command()
{
    QFETCH(QString, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrPart);
    const QString program = QStringLiteral(PD_BINARY_DIR "/sim/pdsim");
    if (!QFileInfo::exists(program))
        QSKIP("pdsim is not built");
    QProcess process;
    process.start(program, QStringList{QStringLiteral("proxy")} + words(args.toLatin1().constData()));
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitCode(), exitCode);
    QVERIFY2(QString::fromUtf8(process.readAllStandardError()).contains(stderrPart), qPrintable(args));
}

QTEST_GUILESS_MAIN(TestSimProxyLogic)
#include "tst_simproxylogic.moc"
