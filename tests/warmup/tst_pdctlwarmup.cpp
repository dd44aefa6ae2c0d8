// SPDX-License-Identifier: MIT
// `pdctl warmup` as a process against `pdsim cluster` as a process (127.0.0.120-122): a clean run
// prints the tables and exits 0; with the first decoder answering 500 (pdsim's control API) the
// proxy's empty 200s are counted and the exit code is 1; --json and --csv; bad arguments exit 2;
// the audit log has a line per run.
#include "httpcall.h"
#include "pdctlrun.h"
#include "pdctlsimtest.h"
#include "pdsimcluster.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestPdctlWarmUp : public pd::test::PdctlSimTest {
    Q_OBJECT

public:
    TestPdctlWarmUp()
        : PdctlSimTest(QStringLiteral(PD_SOURCE_DIR "/tests/data/warmup/warmup-pdctl.json"))
    {
    }

private:
    int pdctl(const QStringList &args, QByteArray *out, QByteArray *err = nullptr)
    {
        const pd::test::PdctlRun run = pd::test::runPdctl(args);
        *out = run.out.toUtf8();
        if (err)
            *err = run.err.toUtf8();
        else
            *out += run.err.toUtf8();
        return run.exitCode;
    }
    QStringList warmup(const QStringList &extra) const
    {
        return QStringList { QStringLiteral("warmup"), QStringLiteral("--profile"), m_profile,
            QStringLiteral("--audit"), m_dir.filePath(QStringLiteral("audit.jsonl")) }
        + extra;
    }
    int curl(const QString &path, const QByteArray &body)
    {
        return pd::test::httpCall("POST", m_sim.controlUrl(path), body).status;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        PD_START_PDSIM(m_sim, m_profile, { QStringLiteral("--time-scale"), QStringLiteral("4"), QStringLiteral("--no-jitter") });
        m_control = m_sim.control();
    }

    void cleanRunExitsZero()
    {
        QByteArray out, err;
        const int rc = pdctl(warmup({ QStringLiteral("-n"), QStringLiteral("8"), QStringLiteral("--concurrency"),
                                 QStringLiteral("2"), QStringLiteral("--max-tokens"), QStringLiteral("4") }),
            &out, &err);
        QVERIFY2(rc == 0, QByteArray(out + err).constData());
        QVERIFY2(
            out.contains("warm-up through http://127.0.0.120:8510: 8 request(s), model deepseek_r1 (proxy /v1/models)"),
            out.constData());
        QVERIFY2(out.contains("success 8/8 (100.0 %)"), out.constData());
        QVERIFY(QRegularExpression(QStringLiteral("\\nok +8  \\n")).match(QString::fromUtf8(out)).hasMatch());
        QVERIFY(QRegularExpression(QStringLiteral("\\nTTFT +8 +[0-9.]+ ")).match(QString::fromUtf8(out)).hasMatch());
        QVERIFY(!out.contains("empty-200"));
        QVERIFY2(err.contains("warm-up: 8/8"), err.constData());
    }

    void decoderFailureExitsOne()
    {
        QCOMPARE(curl(QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.122:9000"],"kind":"http500"})"),
            200);
        QByteArray out;
        const QString csv = m_dir.filePath(QStringLiteral("w.csv"));
        const int rc = pdctl(warmup({ QStringLiteral("-n"), QStringLiteral("6"), QStringLiteral("--concurrency"),
                                 QStringLiteral("1"), QStringLiteral("--json"), QStringLiteral("--csv"), csv }),
            &out);
        QCOMPARE(
            curl(QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.122:9000"],"kind":"none"})"), 200);
        QVERIFY2(rc == 1, out.constData());
        const json j = json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
        QVERIFY2(j.is_object(), out.constData());
        // Sequential traffic always lands on the first decoder (§8.9): every request met the fault.
        QCOMPARE(j["counts"]["empty-200"].get<int>(), 6);
        QCOMPARE(j["ok"].get<int>(), 0);
        QCOMPARE(j["success_rate"].get<double>(), 0.0);
        QVERIFY(j["ttft_ms"]["p50"].is_null());
        QVERIFY(j["examples"]["empty-200"].get<std::string>().find("empty body") != std::string::npos);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 7);
        QVERIFY2(lines.at(1).startsWith("1,") && lines.at(1).contains(",empty-200,200,"), lines.at(1).constData());
    }

    void auditHasEveryRun()
    {
        QByteArray out;
        QCOMPARE(
            pdctl({ QStringLiteral("audit"), QStringLiteral("--file"), m_dir.filePath(QStringLiteral("audit.jsonl")) },
                &out),
            0);
        QVERIFY2(out.contains("warmup  proxy http://127.0.0.120:8510  ok"), out.constData());
        QVERIFY2(out.contains("warmup  proxy http://127.0.0.120:8510  failed"), out.constData());
        QVERIFY(out.contains("empty-200 6"));
    }

    void badArguments()
    {
        QByteArray out;
        QCOMPARE(pdctl({ QStringLiteral("warmup") }, &out), 2);
        QVERIFY(out.contains("usage: pdctl warmup"));
        QCOMPARE(pdctl(warmup({ QStringLiteral("-n"), QStringLiteral("many") }), &out), 2);
        QVERIFY2(out.contains("-n needs a whole number, got \"many\""), out.constData());
        QCOMPARE(pdctl(warmup({ QStringLiteral("--concurrency"), QStringLiteral("100") }), &out), 2);
        QVERIFY2(out.contains("concurrency must be 1..64, got 100"), out.constData());
        QCOMPARE(pdctl({ QStringLiteral("warmup"), QStringLiteral("--profile"),
                           m_dir.filePath(QStringLiteral("missing.json")) },
                     &out),
            1);
    }

    void cleanupTestCase()
    {
        QVERIFY(m_sim.stop()); // pdsim ends on SIGTERM
    }
};

QTEST_GUILESS_MAIN(TestPdctlWarmUp)
#include "tst_pdctlwarmup.moc"
