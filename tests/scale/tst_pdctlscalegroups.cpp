// SPDX-License-Identifier: MIT
// `pdctl scale` by whole coupled DP groups, as a process against `pdsim cluster` as a process
// (tests/scale/data/scale-groups.json: four coupled decode groups of two, two serving) under a light
// background load: decode 4 -> 8 starts two whole groups, 8 -> 5 is refused naming the reachable sizes
// and changes nothing, 8 -> 4 removes two whole groups. No failed client request.
#include "httpcall.h"
#include "pdctlrun.h"
#include "pdctlsimtest.h"
#include "pdsimcluster.h"
#include "scaletesthelpers.h"
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <csignal>

using json = nlohmann::json;

namespace {
const QString kProxyHealth = QStringLiteral("http://127.0.0.111:8400/healthcheck");
} // namespace

class TestPdctlScaleGroups : public pd::test::PdctlSimTest {
    Q_OBJECT

public:
    TestPdctlScaleGroups()
        : PdctlSimTest(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-groups.json"))
    {
    }

private:
    int pdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000) { return pd::test::runPdctl(args, out, timeoutMs); }
    QStringList scale(const QString &to, int *rc, const QStringList &more = {})
    {
        QByteArray out;
        *rc = pdctl(QStringList { QStringLiteral("scale"), QStringLiteral("--profile"), m_profile,
                        QStringLiteral("--pool"), QStringLiteral("decode"), QStringLiteral("--to"), to,
                        QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control, QStringLiteral("--audit"),
                        m_dir.filePath(QStringLiteral("audit.jsonl")) }
                + more,
            &out);
        return QString::fromUtf8(out).split(QLatin1Char('\n'));
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

    // Steady concurrent streams keep the proxy from ever being idle, so a scaled-in group stays listed,
    // draining (proxy-api §8.3), and adding it back is ignored (§8.12). Taking the pool back up to a size
    // that needs that group stops with the ways out (exit 1) unless the proxy restart is allowed; with
    // --allow-proxy-restart every decode rank ends routed, and requests succeed again.
    void undoAScaleInUnderSteadyTraffic()
    {
        post(QStringLiteral("/cluster/load"), R"({"rps": 0, "streams": 6})");
        int rc = -1;
        QStringList out = scale(QStringLiteral("2"), &rc);
        QVERIFY2(rc == 0, qPrintable(out.join(QLatin1Char('\n'))));
        QCOMPARE(runningDecode(), 2);

        // Without the way out it waits for an idle moment (up to its idle timeout); Ctrl-C stops it at the
        // next safe point, saying so, with 128 + SIGINT.
        {
            QProcess waiting;
            waiting.setProgram(pd::test::pdctlPath());
            waiting.setArguments({ QStringLiteral("scale"), QStringLiteral("--profile"), m_profile,
                QStringLiteral("--pool"), QStringLiteral("decode"), QStringLiteral("--to"), QStringLiteral("8"),
                QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control, QStringLiteral("--audit"),
                m_dir.filePath(QStringLiteral("audit.jsonl")) });
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(
                QStringLiteral("XDG_DATA_HOME"), pd::test::testDataHome()); // the journal the other runs share
            waiting.setProcessEnvironment(environment);
            waiting.setProcessChannelMode(QProcess::MergedChannels);
            waiting.start();
            QVERIFY(waiting.waitForStarted(5000));
            QByteArray seen;
            QTRY_VERIFY2_WITH_TIMEOUT(
                (seen += waiting.readAll()).contains("Add every rank to the proxy: running"), seen.constData(), 60000);
            QVERIFY(::kill(pid_t(waiting.processId()), SIGINT) == 0);
            QVERIFY(waiting.waitForFinished(30000));
            seen += waiting.readAll();
            QVERIFY2(
                waiting.exitStatus() == QProcess::NormalExit && waiting.exitCode() == 128 + SIGINT, seen.constData());
            QVERIFY2(seen.contains("interrupted (signal 2)") && seen.contains("cancelled"), seen.constData());
        }
        out = scale(QStringLiteral("8"), &rc, { QStringLiteral("--drain-wait"), QStringLiteral("1") });
        if (rc != 1)
            for (const QString &line : std::as_const(out))
                qInfo("pdctl: %s", qPrintable(line));
        QCOMPARE(rc, 1);
        const QString text = out.join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QLatin1String("still draining"))
                && text.contains(QLatin1String("Without --allow-proxy-restart")),
            qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Ways out")), qPrintable(text));
        QCOMPARE(listedDecode(kProxyHealth), 8); // 6 routed + the 2 ranks it still drains

        out = scale(QStringLiteral("8"), &rc,
            { QStringLiteral("--allow-proxy-restart"), QStringLiteral("--drain-wait"), QStringLiteral("1") });
        if (rc != 0)
            for (const QString &line : std::as_const(out))
                qInfo("pdctl: %s", qPrintable(line));
        QCOMPARE(rc, 0);
        QCOMPARE(runningDecode(), 8);
        QCOMPARE(listedDecode(kProxyHealth), 8);
        // pdctl status agrees with the proxy: 8 decoders active, none draining.
        QByteArray status;
        QCOMPARE(pdctl({ QStringLiteral("status"), QStringLiteral("--profile"), m_profile, QStringLiteral("--json") },
                     &status),
            0);
        const json j = json::parse(status.constData(), status.constData() + status.size(), nullptr, false);
        QVERIFY2(j.is_object(), status.constData());
        int active = 0, draining = 0;
        for (const json &e : j.value("engines", json::array())) {
            active += e.value("role", std::string()) == "decode" && e.value("membership", std::string()) == "active";
            draining += e.value("membership", std::string()) == "draining";
        }
        QVERIFY2(active == 8 && draining == 0, status.constData());
        // Routed again: new requests succeed.
        const int succeeded = cluster()["load"].value("succeeded", 0);
        QTRY_VERIFY_WITH_TIMEOUT(cluster()["load"].value("succeeded", 0) >= succeeded + 6, 60000);
        post(QStringLiteral("/cluster/load"), R"({"streams": 0})");
    }

    void cleanupTestCase()
    {
        QVERIFY(m_sim.stop()); // pdsim ends on SIGTERM
    }
};

QTEST_GUILESS_MAIN(TestPdctlScaleGroups)
#include "tst_pdctlscalegroups.moc"
