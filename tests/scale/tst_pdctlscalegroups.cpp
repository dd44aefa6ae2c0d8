// SPDX-License-Identifier: MIT
// `pdctl scale` by whole coupled DP groups, as a process against `pdsim cluster` as a process
// (tests/scale/data/scale-groups.json: four coupled decode groups of two, two serving) under a light
// background load: decode 4 -> 8 starts two whole groups, 8 -> 5 is refused naming the reachable sizes
// and changes nothing, 8 -> 4 removes two whole groups. No failed client request.
#include "httpcall.h"
#include "pdctlsimtest.h"
#include "pdsimcluster.h"
#include "scaletesthelpers.h"
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestPdctlScaleGroups : public pd::test::PdctlSimTest {
    Q_OBJECT

public:
    TestPdctlScaleGroups()
        : PdctlSimTest(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-groups.json"))
    {
    }

private:
    int pdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000) { return pd::test::runPdctl(args, out, timeoutMs); }
    QStringList scale(const QString &to, int *rc)
    {
        QByteArray out;
        *rc = pdctl({QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"), QStringLiteral("decode"),
                     QStringLiteral("--to"), to, QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control, QStringLiteral("--audit"),
                     m_dir.filePath(QStringLiteral("audit.jsonl"))},
                    &out);
        return QString::fromUtf8(out).split(QLatin1Char('\n'));
    }
    json cluster()
    {
        const QByteArray body = pd::test::httpCall("GET", m_sim.controlUrl(QStringLiteral("/cluster"))).body;
        return json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    }
    // Decode engines the simulated cluster has serving.
    int runningDecode()
    {
        int n = 0;
        const json state = cluster();
        if (state.is_object())
            for (const json &e : state["engines"])
                n += e.value("role", std::string()) == "decode" && e.value("status", std::string()) == "ready";
        return n;
    }
    void post(const QString &path, const QByteArray &body)
    {
        pd::test::httpCall("POST", m_sim.controlUrl(path), body);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        PD_START_PDSIM(m_sim, m_profile, {QStringLiteral("--time-scale"),
                            QStringLiteral("20"), QStringLiteral("--load"), QStringLiteral("1"), QStringLiteral("--load-max-inflight"),
                            QStringLiteral("4"), QStringLiteral("--no-jitter")});
        m_control = m_sim.control();
        post(QStringLiteral("/cluster/engines/stop"),
             R"({"engines":["127.0.0.115:9000","127.0.0.115:9001","127.0.0.116:9000","127.0.0.116:9001"]})");
        QTRY_COMPARE_WITH_TIMEOUT(runningDecode(), 4, 20000);
    }

    void scaleByWholeGroups()
    {
        int rc = -1;
        QStringList out = scale(QStringLiteral("8"), &rc);
        QVERIFY2(rc == 0, qPrintable(out.join(QLatin1Char('\n'))));
        QVERIFY2(out.contains(QStringLiteral("  start DP group decode@127.0.0.115:13395: all 2 ranks at once, wait until every rank serves "
                                             "(one deadline), then add all")),
                 qPrintable(out.join(QLatin1Char('\n'))));
        QVERIFY(!out.filter(QStringLiteral("succeeded  decode@127.0.0.116:13395")).isEmpty());
        QCOMPARE(runningDecode(), 8);

        // Not a sum of whole groups: refused from the profile, nothing changes.
        out = scale(QStringLiteral("5"), &rc);
        QCOMPARE(rc, 1);
        QVERIFY2(!out.filter(QStringLiteral("decode can be 0, 2, 4, 6 or 8")).isEmpty(), qPrintable(out.join(QLatin1Char('\n'))));
        QCOMPARE(runningDecode(), 8);

        out = scale(QStringLiteral("4"), &rc);
        QVERIFY2(rc == 0, qPrintable(out.join(QLatin1Char('\n'))));
        QCOMPARE(out.filter(QStringLiteral("  remove DP group ")).size(), 2);
        QCOMPARE(runningDecode(), 4);

        const json load = cluster()["load"];
        QVERIFY(load["sent"].get<int>() > 0);
        QCOMPARE(load["failed"].get<int>(), 0);
    }

    void cleanupTestCase()
    {
        QVERIFY(m_sim.stop()); // pdsim ends on SIGTERM
    }
};

QTEST_GUILESS_MAIN(TestPdctlScaleGroups)
#include "tst_pdctlscalegroups.moc"
