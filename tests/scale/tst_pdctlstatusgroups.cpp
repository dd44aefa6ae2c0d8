// SPDX-License-Identifier: MIT
// `pdctl status` names DP groups: against `pdsim cluster` (a prefill group of 2 on p0, a coupled decode
// group of 4 spanning d0 and d1), the groups serve; a crashed decode rank makes its group broken, listed by
// host:port in --json and named in the plain text; the prefill group stays serving.
#include "httpcall.h"
#include "pdsimcluster.h"
#include "scaletesthelpers.h"
#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestPdctlStatusGroups : public QObject {
    Q_OBJECT

    pd::test::PdsimCluster m_sim;
    QString m_control;
    const QString m_profile = QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/status-groups.json");

    int pdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000) { return pd::test::runPdctl(args, out, timeoutMs); }
    json status() { return pd::test::pdctlStatus(m_profile); }
    static json group(const json &s, const std::string &id)
    {
        if (s.is_object() && s.contains("groups"))
            for (const json &g : s["groups"])
                if (g["id"] == id)
                    return g;
        return json();
    }
    static std::string stateOf(const json &s, const std::string &id)
    {
        const json g = group(s, id);
        return g.is_object() ? g["state"].get<std::string>() : std::string("missing");
    }
    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body)
    {
        return pd::test::httpCall(method, url, body).body;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PD_START_PDSIM(m_sim, m_profile, {QStringLiteral("--time-scale"),
                            QStringLiteral("20"), QStringLiteral("--no-jitter")});
        m_control = m_sim.control();
    }

    void everyGroupServes()
    {
        json s;
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(s = status(), "decode@127.0.0.83:13395") == "serving", 30000);
        QVERIFY2(s["groups"].size() == 2, s.dump(2).c_str());
        const json decode = group(s, "decode@127.0.0.83:13395");
        QVERIFY2(decode["role"] == "decode" && decode["coupling"] == "coupled", decode.dump().c_str());
        QVERIFY2(decode["ranks"] == json({"127.0.0.83:9000", "127.0.0.83:9001", "127.0.0.84:9000", "127.0.0.84:9001"}),
                 decode.dump().c_str());
        QVERIFY(decode["dead"].is_array() && decode["dead"].empty());
        QVERIFY2(stateOf(s, "prefill@127.0.0.82:13395") == "serving", s.dump(2).c_str());
    }

    void aCrashedRankBreaksItsGroup()
    {
        const QByteArray reply = http("POST", QStringLiteral("http://%1/cluster/engines/fault").arg(m_control),
                                      R"({"engines":["127.0.0.84:9001"],"kind":"crash"})");
        QVERIFY2(reply.contains("127.0.0.84:9001"), reply.constData());
        json s;
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(s = status(), "decode@127.0.0.83:13395") == "broken", 30000);
        QVERIFY2(group(s, "decode@127.0.0.83:13395")["dead"] == json({"127.0.0.84:9001"}), s.dump(2).c_str());
        QVERIFY2(stateOf(s, "prefill@127.0.0.82:13395") == "serving", s.dump(2).c_str());
        // The proxy still lists the crashed rank: dead in the proxy, never "active".
        for (const json &e : s["engines"]) {
            if (e["id"] == "127.0.0.84:9001")
                QVERIFY2(e["membership"] == "dead-in-proxy" && e["http"] == "down", e.dump().c_str());
            else if (e["role"] == "decode")
                QVERIFY2(e["membership"] == "active", e.dump().c_str());
        }

        QByteArray out;
        QCOMPARE(pdctl({QStringLiteral("status"), QStringLiteral("--profile"), m_profile}, &out), 0);
        QVERIFY2(out.contains("group decode@127.0.0.83:13395 is broken: 127.0.0.84:9001 is down and the other 3 ranks "
                              "cannot make progress; restart the whole group"),
                 out.constData());
        QVERIFY2(QRegularExpression(QStringLiteral("127\\.0\\.0\\.84:9001 +decode +d1 +\\d+ dead-in-proxy +down"))
                     .match(QString::fromUtf8(out)).hasMatch(),
                 out.constData());
        QVERIFY2(QRegularExpression(QStringLiteral("prefill@127.0.0.82:13395 +prefill +coupled +2 serving"))
                     .match(QString::fromUtf8(out)).hasMatch(),
                 out.constData());
    }

    void cleanupTestCase()
    {
        QVERIFY(m_sim.stop()); // pdsim ends on SIGTERM
    }
};

QTEST_GUILESS_MAIN(TestPdctlStatusGroups)
#include "tst_pdctlstatusgroups.moc"
