// SPDX-License-Identifier: MIT
// `pdctl status` and `pdctl scale` as processes against `pdsim cluster` as a process: decode 4 -> 6
// with --yes under a background load, then the last-instance guard refuses prefill -> 0, and
// `pdctl audit` prints what was done. No failed client request.
#include "httpcall.h"
#include "pdctlsimtest.h"
#include "pdsimcluster.h"
#include "scaletesthelpers.h"
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestPdctlScale : public pd::test::PdctlSimTest {
    Q_OBJECT

public:
    TestPdctlScale()
        : PdctlSimTest(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-pdctl.json"))
    {
    }

private:
    int pdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000)
    {
        return pd::test::runPdctl(args, out, timeoutMs);
    }
    json status() { return pd::test::pdctlStatus(m_profile); }
    static int active(const json &s, const std::string &role)
    {
        int n = 0;
        if (s.is_object())
            for (const json &e : s["engines"])
                n += e["role"] == role && e["membership"] == "active";
        return n;
    }
    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body)
    {
        return pd::test::httpCall(method, url, body).body;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PD_START_PDSIM(m_sim, m_profile, {QStringLiteral("--time-scale"),
                            QStringLiteral("20"), QStringLiteral("--load"), QStringLiteral("2"), QStringLiteral("--load-max-inflight"),
                            QStringLiteral("8"), QStringLiteral("--no-jitter")});
        m_control = m_sim.control();
        http("POST", QStringLiteral("http://%1/cluster/engines/stop").arg(m_control),
             R"({"engines":["127.0.0.73:9004","127.0.0.73:9005","127.0.0.73:9006","127.0.0.73:9007"]})");
        QTRY_VERIFY_WITH_TIMEOUT(active(status(), "decode") == 4, 20000);
    }

    void scaleDecodeTo6()
    {
        const QString audit = m_dir.filePath(QStringLiteral("audit.jsonl"));
        QByteArray out;
        const int rc = pdctl({QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"), QStringLiteral("decode"),
                              QStringLiteral("--to"), QStringLiteral("6"), QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control,
                              QStringLiteral("--audit"), audit}, &out);
        QVERIFY2(rc == 0, out.constData());
        QVERIFY2(out.contains("start and add  127.0.0.73:9004"), out.constData());
        QVERIFY2(out.contains("succeeded  127.0.0.73:9005"), out.constData());
        QCOMPARE(active(status(), "decode"), 6);

        // Without --yes and without a terminal: refused, nothing done.
        QCOMPARE(pdctl({QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"), QStringLiteral("decode"),
                        QStringLiteral("--to"), QStringLiteral("5"), QStringLiteral("--sim-control"), m_control, QStringLiteral("--audit"), audit}, &out), 2);
        QVERIFY(out.contains("confirm with --yes"));
        // The last-instance guard.
        QCOMPARE(pdctl({QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"), QStringLiteral("prefill"),
                        QStringLiteral("--to"), QStringLiteral("0"), QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control,
                        QStringLiteral("--audit"), audit}, &out), 1);
        QVERIFY2(out.contains("Needs the override"), out.constData());
        QCOMPARE(active(status(), "prefill"), 2);

        QCOMPARE(pdctl({QStringLiteral("audit"), QStringLiteral("--file"), audit}, &out), 0);
        QVERIFY2(out.contains("scale-out.add  decode 127.0.0.73:9004  done"), out.constData());
        QVERIFY(out.contains("scale-out  decode 127.0.0.73:9005  succeeded"));

        const QByteArray state = http("GET", QStringLiteral("http://%1/cluster").arg(m_control), {});
        const json load = json::parse(state.constData(), state.constData() + state.size(), nullptr, false)["load"];
        QVERIFY(load["sent"].get<int>() > 0);
        QCOMPARE(load["failed"].get<int>(), 0);
        QCOMPARE(load["empty_ok"].get<int>(), 0);
    }

    // Under a load that never lets the proxy be idle, the two removed instances stay
    // listed (§8.3) after their engines stopped. A pdctl with no memory of that scale-in (a fresh data
    // directory: no membership journal) must not count them: scaling straight back up starts two other
    // engines and the pool serves 6 again.
    void scaleDownAndStraightBackUpUnderLoad()
    {
        QCOMPARE(active(status(), "decode"), 6);
        const QString audit = m_dir.filePath(QStringLiteral("audit-down-up.jsonl"));
        QVERIFY(http("POST", QStringLiteral("http://%1/cluster/load").arg(m_control), R"({"rps": 40})").contains("rps"));
        QByteArray out;
        int rc = pdctl({QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"), QStringLiteral("decode"),
                        QStringLiteral("--to"), QStringLiteral("4"), QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control,
                        QStringLiteral("--audit"), audit}, &out);
        QVERIFY2(rc == 0, out.constData());

        QTemporaryDir stateless;
        QVERIFY(stateless.isValid());
        const auto statusFrom = [this](const QString &dataHome) {
            QByteArray text;
            if (pd::test::runPdctl({QStringLiteral("status"), QStringLiteral("--profile"), m_profile, QStringLiteral("--json")}, &text,
                                   120000, dataHome) != 0)
                return json();
            return json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
        };
        const json after = statusFrom(stateless.path());
        QVERIFY(after.is_object());
        int serving = 0, listedDead = 0;
        for (const json &e : after["engines"]) {
            if (e["role"] != "decode")
                continue;
            // Listed while nothing answers: dead in the proxy (or draining when remembered), never active.
            QVERIFY2(!(e["membership"] == "active" && e["http"] == "down"), e.dump().c_str());
            serving += e["membership"] == "active" && e["http"] == "serving";
            listedDead += e["membership"] == "dead-in-proxy";
        }
        QCOMPARE(serving, 4);
        qInfo("after the scale-in under load: %d removed instance(s) still listed by the busy proxy", listedDead);

        rc = pd::test::runPdctl({QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"),
                                 QStringLiteral("decode"), QStringLiteral("--to"), QStringLiteral("6"), QStringLiteral("--yes"),
                                 QStringLiteral("--sim-control"), m_control, QStringLiteral("--audit"), audit},
                                &out, 180000, stateless.path());
        QVERIFY2(rc == 0, out.constData());
        QVERIFY2(!out.contains("Nothing to do"), out.constData());
        QVERIFY2(out.contains("from 4 to 6"), out.constData());
        if (listedDead > 0)
            QVERIFY2(out.contains("not counted"), out.constData());

        QVERIFY(http("POST", QStringLiteral("http://%1/cluster/load").arg(m_control), R"({"rps": 2})").contains("rps"));
        const json back = statusFrom(stateless.path());
        serving = 0;
        for (const json &e : back["engines"])
            serving += e["role"] == "decode" && e["http"] == "serving" && e["membership"] == "active";
        QCOMPARE(serving, 6);
        const QByteArray state = http("GET", QStringLiteral("http://%1/cluster").arg(m_control), {});
        const json load = json::parse(state.constData(), state.constData() + state.size(), nullptr, false)["load"];
        QCOMPARE(load["failed"].get<int>(), 0);
    }

    void cleanupTestCase()
    {
        QVERIFY(m_sim.stop()); // pdsim ends on SIGTERM
    }
};

QTEST_GUILESS_MAIN(TestPdctlScale)
#include "tst_pdctlscale.moc"
