// SPDX-License-Identifier: MIT
// `pdctl problems` and `pdctl watch --auto-eject` as processes against `pdsim cluster` as a process,
// under client load: a decode engine crashes, the proxy keeps routing to it and requests fail; the
// watch ejects it, the failures stop (both rates measured and printed); once the load pauses the drain
// completes, the engine is restarted and the watch adds it back. Every event the watch prints reaches
// the webhook receiver, once; ejection and re-add are in the audit log.
#include "../scale/scaletesthelpers.h"
#include "httpcall.h"
#include "pdctlsimtest.h"
#include "pdsimcluster.h"
#include "webhookreceiver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

struct LoadStats {
    long long sent = 0;
    long long failed = 0; // failed + 200-with-empty-body: what a client sees as a failure
};

} // namespace

class TestPdctlWatch : public pd::test::PdctlSimTest {
    Q_OBJECT

public:
    TestPdctlWatch()
        : PdctlSimTest(QStringLiteral(PD_SOURCE_DIR "/tests/watch/data/watch-loopback.json"))
    {
    }

private:
    const QString m_victim = QStringLiteral("127.0.0.153:9001");

    int pdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000) { return pd::test::runPdctl(args, out, timeoutMs); }
    QByteArray http(const QByteArray &method, const QString &path, const QByteArray &body = {}) { return httpAt(m_control, method, path, body); }
    static QByteArray httpAt(const QString &control, const QByteArray &method, const QString &path, const QByteArray &body = {})
    {
        return pd::test::httpCall(method, QStringLiteral("http://%1%2").arg(control, path), body).body;
    }
    LoadStats load() { return loadAt(m_control); }
    static LoadStats loadAt(const QString &control)
    {
        const QByteArray body = httpAt(control, "GET", QStringLiteral("/cluster"));
        const json j = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
        if (!j.is_object() || !j.contains("load"))
            return {};
        const json &l = j["load"];
        return {l["sent"].get<long long>(), l["failed"].get<long long>() + l["empty_ok"].get<long long>()};
    }
    // Waits until the load generator has sent `more` requests after `from`.
    // (bounded: 60 s; the caller's comparison fails when the load stopped).
    LoadStats after(const LoadStats &from, long long more, const QString &control = {})
    {
        const QString at = control.isEmpty() ? m_control : control;
        LoadStats now;
        static_cast<void>(QTest::qWaitFor( // the load runs in another process: poll its counter
            [&] {
                now = loadAt(at);
                return now.sent >= from.sent + more;
            },
            60000));
        return now;
    }

    // `pdsim cluster` on a profile under client load.
    static QString startSim(pd::test::PdsimCluster *sim, const QString &profile)
    {
        const QString error = sim->start(profile, {QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--load"),
                                                   QStringLiteral("10"), QStringLiteral("--load-max-inflight"), QStringLiteral("8"),
                                                   QStringLiteral("--no-jitter")});
        if (!error.isEmpty())
            qWarning("%s", qPrintable(error));
        return sim->control();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_control = startSim(&m_sim, m_profile);
        QVERIFY(!m_control.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(load().sent > 0, 30000);
    }

    void cleanupTestCase() { m_sim.stop(); }

    void usage()
    {
        QByteArray out;
        QCOMPARE(pdctl({QStringLiteral("watch"), QStringLiteral("--help")}, &out), 0);
        QVERIFY2(out.contains("--auto-eject"), out.constData());
        QCOMPARE(pdctl({QStringLiteral("problems"), QStringLiteral("--help")}, &out), 0);
        QVERIFY(out.contains("exit 0 none, 1 warnings only, 2 errors"));
        QCOMPARE(pdctl({QStringLiteral("problems")}, &out), 2);
        QVERIFY2(out.contains("pdctl problems: --profile FILE is required"), out.constData());
        QCOMPARE(pdctl({QStringLiteral("watch"), QStringLiteral("--profile"), m_profile, QStringLiteral("--webhook"),
                        QStringLiteral("ftp://127.0.0.1/x")}, &out), 2);
        QVERIFY2(out.contains("--webhook needs an http:// or https:// URL"), out.constData());
        QCOMPARE(pdctl({QStringLiteral("watch"), QStringLiteral("--profile"), m_profile, QStringLiteral("--eject-after"),
                        QStringLiteral("0")}, &out), 2);
        QCOMPARE(pdctl({QStringLiteral("problems"), QStringLiteral("--profile"), m_dir.filePath(QStringLiteral("none.json"))}, &out), 3);
    }

    void aHealthyClusterHasNoProblems()
    {
        QByteArray out;
        QCOMPARE(pdctl({QStringLiteral("problems"), QStringLiteral("--profile"), m_profile, QStringLiteral("--interval"),
                        QStringLiteral("0.5")}, &out), 0);
        QVERIFY2(out.contains("no problems"), out.constData());
        QCOMPARE(pdctl({QStringLiteral("problems"), QStringLiteral("--profile"), m_profile, QStringLiteral("--json"),
                        QStringLiteral("--interval"), QStringLiteral("0.5")}, &out), 0);
        const json j = json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY2(j.is_object(), out.constData());
        QCOMPARE(j["exit"].get<int>(), 0);
        QCOMPARE(j["engines"].get<int>(), 6);
        QCOMPARE(j["proxy"]["decode_instances"].get<int>(), 4);
    }

    void aCrashedDecoderIsEjectedAndReadded()
    {
        pd::test::WebhookReceiver receiver;
        QVERIFY(receiver.listen());
        const QString audit = m_dir.filePath(QStringLiteral("audit.jsonl"));
        QProcess watch;
        watch.setProgram(QStringLiteral(PD_BINARY_DIR "/app/pdctl/pdctl"));
        watch.setArguments({QStringLiteral("watch"), QStringLiteral("--profile"), m_profile, QStringLiteral("--json-lines"),
                            QStringLiteral("--auto-eject"), QStringLiteral("--eject-after"), QStringLiteral("2"),
                            QStringLiteral("--readd-after"), QStringLiteral("2"), QStringLiteral("--interval"), QStringLiteral("0.5"),
                            QStringLiteral("--webhook"), receiver.url(), QStringLiteral("--audit"), audit,
                            QStringLiteral("--duration"), QStringLiteral("240")});
        watch.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        watch.start();
        QVERIFY(watch.waitForStarted(5000));
        QList<json> events;
        QByteArray pending;
        auto readEvents = [&] {
            pending += watch.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl);
                pending.remove(0, nl + 1);
                json j = json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
                if (j.is_object()) {
                    qInfo("watch: %s", line.constData()); // the run's story, for a failure's log
                    events.append(j);
                }
                else
                    qWarning("not JSON: %s", line.constData());
            }
        };
        auto seen = [&](const char *event, const QString &field = {}, const QString &value = {}) {
            readEvents();
            for (const json &e : events) {
                if (e["event"] != event)
                    continue;
                if (field.isEmpty())
                    return true;
                const std::string s = e.dump();
                if (s.find(value.toStdString()) != std::string::npos)
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(seen("started"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(seen("polled"), 30000);
        QVERIFY(seen("polled", QStringLiteral("up"), QStringLiteral("\"up\":6"))); // seen up before the crash

        // Crash one decoder; the proxy keeps picking it (least loaded) until the watch ejects it.
        const LoadStats atCrash = load();
        QVERIFY(http("POST", QStringLiteral("/cluster/engines/fault"),
                     QStringLiteral(R"({"engines":["%1"],"kind":"crash"})").arg(m_victim).toUtf8()).contains(m_victim.toUtf8()));
        QTRY_VERIFY_WITH_TIMEOUT(seen("ejected", QStringLiteral("unit"), m_victim), 60000);
        const LoadStats atEject = load();
        QVERIFY(seen("appeared", QStringLiteral("key"), QStringLiteral("listed-but-dead")));
        // pdctl problems, asked right after the ejection, sees the dead engine (exit 2) while its removal is
        // still draining under load. How long that lasts depends on the machine: under ASan at load the
        // removal can settle first, and then the answer must show the proxy without it (3 decoders of 4),
        // never a proxy that still routes to the dead engine with no problem said.
        QByteArray out;
        const int exitCode = pdctl({ QStringLiteral("problems"), QStringLiteral("--profile"), m_profile,
                                       QStringLiteral("--json"), QStringLiteral("--interval"), QStringLiteral("0.5") },
            &out);
        if (exitCode == 0) {
            const json settled = json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
            QVERIFY2(settled.is_object(), out.constData());
            QVERIFY2(settled["proxy"]["decode_instances"] == 3, out.constData());
        } else {
            QCOMPARE(exitCode, 2);
            QVERIFY2(out.contains(m_victim.toUtf8()), out.constData());
        }
        // Requests sent before the removal may still fail as they finish: measure from the next ones on.
        const LoadStats settled = after(atEject, 10);
        const LoadStats end = after(settled, 40);
        QVERIFY2(end.sent >= settled.sent + 40, "the load stopped");
        const double before = double(atEject.failed - atCrash.failed) / double(std::max(1LL, atEject.sent - atCrash.sent));
        const double afterRate = double(end.failed - settled.failed) / double(std::max(1LL, end.sent - settled.sent));
        qInfo("failed requests: %.1f %% between the crash and the ejection (%lld of %lld), %.1f %% after it (%lld of %lld)",
              100 * before, atEject.failed - atCrash.failed, atEject.sent - atCrash.sent, 100 * afterRate,
              end.failed - settled.failed, end.sent - settled.sent);
        QVERIFY2(atEject.failed > atCrash.failed, "the dead decoder failed no request: the test proves nothing");
        QCOMPARE(end.failed, settled.failed);

        // The removal completes once the proxy is idle (proxy-api.md 8.3); the engine comes back and is added.
        QVERIFY(http("POST", QStringLiteral("/cluster/load"), R"({"rps": 0})").contains("rps"));
        QVERIFY(http("POST", QStringLiteral("/cluster/engines/start"), QStringLiteral(R"({"engines":["%1"]})").arg(m_victim).toUtf8())
                    .contains(m_victim.toUtf8()));
        QTRY_VERIFY_WITH_TIMEOUT(seen("readded", QStringLiteral("unit"), m_victim), 90000);
        QVERIFY(http("POST", QStringLiteral("/cluster/load"), R"({"rps": 10})").contains("rps"));
        // Every problem the crash raised has cleared (which ones depends on how fast the crash was seen).
        auto allCleared = [&] {
            readEvents();
            QStringList open;
            for (const json &e : events) {
                if (e["event"] == "appeared")
                    open.append(QString::fromStdString(e["problem"]["key"].get<std::string>()));
                else if (e["event"] == "cleared")
                    open.removeAll(QString::fromStdString(e["problem"]["key"].get<std::string>()));
            }
            return open.isEmpty();
        };
        QTRY_VERIFY_WITH_TIMEOUT(allCleared(), 60000);
        QVERIFY(seen("cleared", QStringLiteral("key"), QStringLiteral(":3")));

        // One webhook post per event, in order (all but the start and first-round lines, which only the terminal gets).
        QList<QByteArray> expected;
        auto posted = [&] {
            readEvents();
            expected.clear();
            for (const json &e : events)
                if (e["event"] != "started" && e["event"] != "polled")
                    expected.append(QByteArray::fromStdString(e.dump()));
            return receiver.bodies.size() >= expected.size();
        };
        QTRY_VERIFY_WITH_TIMEOUT(posted(), 30000);
        QCOMPARE(receiver.bodies.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            const json a = json::parse(receiver.bodies.at(i).toStdString(), nullptr, false);
            QCOMPARE(QByteArray::fromStdString(a.dump()), expected.at(i));
        }

        // Audited.
        QFile file(audit);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray log = file.readAll();
        QVERIFY2(log.contains(R"("action":"watch.eject","target":"decode 127.0.0.153:9001")"), log.constData());
        QVERIFY2(log.contains(R"("action":"watch.readd","target":"decode 127.0.0.153:9001")"), log.constData());
        QCOMPARE(log.count(R"("result":"ok")"), 2);

        watch.terminate();
        QVERIFY(watch.waitForFinished(15000));
        QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
        QCOMPARE(watch.exitCode(), 0);
    }

    // The proxy down: pdctl status still lists every engine as probed directly and says the proxy is
    // unreachable (exit 1); pdctl problems ranks the proxy's outage first (exit 2). Runs last: it stops the proxy.
    void aProxyOutageIsSaidNotHidden()
    {
        QVERIFY(http("POST", QStringLiteral("/cluster/proxy/stop"), "{}").size() > 0);
        QByteArray out;
        QCOMPARE(pdctl({QStringLiteral("status"), QStringLiteral("--profile"), m_profile}, &out), 1);
        QVERIFY2(out.contains("UNREACHABLE"), out.constData());
        for (const char *engine : {"127.0.0.152:9000", "127.0.0.152:9001", "127.0.0.153:9000", "127.0.0.153:9003"})
            QVERIFY2(out.contains(QByteArray(QByteArray(engine) + "  ")), out.constData());
        QVERIFY2(out.count("serving") >= 6, out.constData());
        QCOMPARE(pdctl({QStringLiteral("status"), QStringLiteral("--profile"), m_profile, QStringLiteral("--json")}, &out), 1);
        const json j = json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY2(j.is_object() && j["proxy"]["reachable"] == false && j["engines"].size() == 6, out.constData());
        QCOMPARE(pdctl({QStringLiteral("problems"), QStringLiteral("--profile"), m_profile, QStringLiteral("--json"),
                        QStringLiteral("--interval"), QStringLiteral("0.5")}, &out), 2);
        const json p = json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY2(p.is_object() && p["problems"].size() >= 1 && p["problems"][0]["key"] == "proxy-unreachable", out.constData());
        QVERIFY(http("POST", QStringLiteral("/cluster/proxy/start"), "{}").size() > 0);
    }

    // Two coupled decode groups of two ranks: one rank crashes, its group is broken (the other rank hangs
    // on it). The watch ejects the whole group, never the dead rank alone, and the failures stop.
    void aBrokenCoupledGroupIsEjectedWhole()
    {
        pd::test::PdsimCluster sim;
        const QString control = startSim(&sim, QStringLiteral(PD_SOURCE_DIR "/tests/watch/data/watch-groups.json"));
        QVERIFY(!control.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(loadAt(control).sent > 0, 30000);
        QProcess watch;
        watch.setProgram(QStringLiteral(PD_BINARY_DIR "/app/pdctl/pdctl"));
        watch.setArguments({QStringLiteral("watch"), QStringLiteral("--profile"), QStringLiteral(PD_SOURCE_DIR "/tests/watch/data/watch-groups.json"),
                            QStringLiteral("--json-lines"), QStringLiteral("--auto-eject"), QStringLiteral("--eject-after"), QStringLiteral("2"),
                            QStringLiteral("--interval"), QStringLiteral("0.5"), QStringLiteral("--audit"),
                            m_dir.filePath(QStringLiteral("groups-audit.jsonl")), QStringLiteral("--duration"), QStringLiteral("120")});
        watch.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        watch.start();
        QVERIFY(watch.waitForStarted(5000));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains("\"event\":\"polled\",\"at\""), 30000);
        QVERIFY2(out.contains("\"up\":6"), out.constData());
        const LoadStats atCrash = loadAt(control);
        QVERIFY(httpAt(control, "POST", QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.163:9001"],"kind":"crash"})")
                    .contains("127.0.0.163:9001"));
        QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains("\"event\":\"ejected\""), 60000);
        const LoadStats atEject = loadAt(control);
        json ejected;
        for (const QByteArray &line : out.split('\n')) {
            const json j = json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
            if (j.is_object())
                qInfo("watch: %s", line.constData());
            if (j.is_object() && j["event"] == "ejected")
                ejected = j;
        }
        QVERIFY2(ejected["unit"] == "group decode@127.0.0.163:13395", ejected.dump().c_str());
        QVERIFY2(ejected["instances"] == json::array({"127.0.0.163:9000", "127.0.0.163:9001"}), ejected.dump().c_str());
        QVERIFY(out.contains("group-broken:decode@127.0.0.163:13395"));
        const LoadStats settled = after(atEject, 10, control);
        const LoadStats end = after(settled, 40, control);
        QVERIFY2(end.sent >= settled.sent + 40, "the load stopped");
        qInfo("coupled group: %lld of %lld requests failed between the crash and the ejection, %lld of %lld after it",
              atEject.failed - atCrash.failed, atEject.sent - atCrash.sent, end.failed - settled.failed, end.sent - settled.sent);
        QCOMPARE(end.failed, settled.failed);
        // Exactly one ejection: the other group serves on, untouched.
        QCOMPARE(out.count("\"event\":\"ejected\""), 1);
        watch.terminate();
        QVERIFY(watch.waitForFinished(15000));
        sim.stop();
    }

    // The same crash under steady client streams (the proxy is never idle, so the ejected group stays
    // listed, draining), with --auto-heal: the watch ejects the broken group, restarts it as one group
    // through pdsim's control API and brings it back; the busy proxy is restarted with its current lists
    // to end the drain. The group ends routed (both ranks serving, four decoders listed, none draining),
    // every step is in the audit log, and requests succeed afterwards. Times are printed.
    void aBrokenCoupledGroupIsHealedUnderSteadyTraffic()
    {
        pd::test::PdsimCluster sim;
        const QString control = startSim(&sim, QStringLiteral(PD_SOURCE_DIR "/tests/watch/data/watch-groups.json"));
        QVERIFY(!control.isEmpty());
        QVERIFY(!httpAt(control, "POST", QStringLiteral("/cluster/load"), R"({"rps": 0, "streams": 6})").isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(loadAt(control).sent > 6, 30000);
        const QString auditPath = m_dir.filePath(QStringLiteral("heal-audit.jsonl"));
        QProcess watch;
        watch.setProgram(QStringLiteral(PD_BINARY_DIR "/app/pdctl/pdctl"));
        watch.setArguments({ QStringLiteral("watch"), QStringLiteral("--profile"),
            QStringLiteral(PD_SOURCE_DIR "/tests/watch/data/watch-groups.json"), QStringLiteral("--json-lines"),
            QStringLiteral("--auto-heal"), QStringLiteral("--sim-control"), control, QStringLiteral("--eject-after"),
            QStringLiteral("2"), QStringLiteral("--interval"), QStringLiteral("0.5"), QStringLiteral("--audit"),
            auditPath, QStringLiteral("--duration"), QStringLiteral("150") });
        watch.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        watch.start();
        QVERIFY(watch.waitForStarted(5000));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains("\"event\":\"polled\",\"at\""), 30000);
        QVERIFY2(out.contains("\"auto_heal\":true"), out.constData());
        QElapsedTimer clock;
        clock.start();
        QVERIFY(httpAt(control, "POST", QStringLiteral("/cluster/engines/fault"),
            R"({"engines":["127.0.0.163:9001"],"kind":"crash"})")
                    .contains("127.0.0.163:9001"));
        QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains("\"event\":\"ejected\""), 60000);
        const qint64 ejectedMs = clock.elapsed();
        QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains("\"event\":\"heal"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains("\"event\":\"healed\"")
                || out.contains("\"event\":\"heal-failed\""),
            120000);
        const qint64 healedMs = clock.elapsed();
        for (const QByteArray &line : out.split('\n'))
            if (line.contains("\"event\":\"heal") || line.contains("\"event\":\"ejected\""))
                qInfo("watch: %s", line.constData());
        QVERIFY2(out.contains("\"event\":\"healed\""), out.constData());
        // Routed again: four decoders listed (the restarted proxy has no drain), both ranks serving.
        const QByteArray health = pd::test::httpCall("GET", QStringLiteral("http://127.0.0.161:8610/healthcheck")).body;
        const json h = json::parse(health.constData(), health.constData() + health.size(), nullptr, false);
        QVERIFY2(h.is_object() && h.value("decode_instances", 0) == 4, health.constData());
        const LoadStats settled = after(loadAt(control), 6, control);
        const LoadStats end = after(settled, 24, control);
        QVERIFY2(end.sent >= settled.sent + 24, "the load stopped");
        QCOMPARE(end.failed, settled.failed);
        qInfo("auto-heal under 6 streams (time scale 20): ejected %lld ms after the crash, routed again after %lld ms",
            ejectedMs, healedMs);
        // Every step audited: the heal's group restart and the proxy restart that ended the drain.
        QFile audit(auditPath);
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QByteArray lines = audit.readAll();
        QVERIFY2(lines.contains("group-restart.stop-ranks") && lines.contains("group-restart.add"), lines.constData());
        QVERIFY2(lines.contains("proxy.restart-for-drains"), lines.constData());
        watch.terminate();
        QVERIFY(watch.waitForFinished(15000));
        sim.stop();
    }
};

QTEST_GUILESS_MAIN(TestPdctlWatch)
#include "tst_pdctlwatch.moc"
