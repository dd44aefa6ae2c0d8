// SPDX-License-Identifier: MIT
// `pdctl node check` as an operator runs it: the demo profile's node p0 (127.0.0.2, this machine, so the
// local runner) with the fake hccn_tool / npu-smi of sim/demo-tools as --tool-dir; a clean node
// passes (exit 0), a link down on one NPU fails it (exit 1) with the device and reason, reports are
// written, and an unknown node and bad options are usage errors.
#include "pdctlrun.h"
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kProfile = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json");
const QString kTools = QStringLiteral(PD_SOURCE_DIR "/sim/demo-tools");

using Run = pd::test::PdctlRun;

Run pdctl(const QStringList &args, const QStringList &env = {})
{
    return pd::test::runPdctl(args, { 120000, env });
}

} // namespace

class TestPdctlNode : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QStringList checkArgs(const QStringList &more = {}) const
    {
        return QStringList{QStringLiteral("node"), QStringLiteral("check"), QStringLiteral("--profile"), kProfile,
                           QStringLiteral("--node"), QStringLiteral("p0"), QStringLiteral("--tool-dir"), kTools,
                           QStringLiteral("--hccn-conf"), QStringLiteral("/nonexistent/hccn.conf"),
                           QStringLiteral("--no-ping"), QStringLiteral("--timeout"), QStringLiteral("60")}
            + more;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFileInfo(pd::test::pdctlPath()).isExecutable());
    }

    void aCleanNodePasses()
    {
        const QString json = m_dir.filePath(QStringLiteral("clean.json"));
        const Run r = pdctl(checkArgs({QStringLiteral("--json"), json}), {QStringLiteral("FAKE_ASCEND_GEN=A3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QLatin1String("ok     p0 (127.0.0.2): ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String(" 0 fail")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("1 of 1 node(s) passed")));
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(QJsonDocument::fromJson(file.readAll()).isObject());
    }

    void aLinkDownFailsTheNodeWithItsDevice()
    {
        const QString csv = m_dir.filePath(QStringLiteral("fault.csv"));
        const Run r = pdctl(checkArgs({QStringLiteral("--csv"), csv}),
                            {QStringLiteral("FAKE_ASCEND_GEN=A3"), QStringLiteral("FAKE_LINK_DOWN=3")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1String("FAILED p0 (127.0.0.2)")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("FAIL p0 NPU 3 link: ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("DOWN")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("0 of 1 node(s) passed")));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("link status: DOWN"));
    }

    void usageErrors()
    {
        Run r = pdctl({QStringLiteral("node"), QStringLiteral("check"), QStringLiteral("--profile"), kProfile,
                       QStringLiteral("--node"), QStringLiteral("nosuch")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("no node named \"nosuch\"")), qPrintable(r.err));
        r = pdctl({QStringLiteral("node"), QStringLiteral("check")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QLatin1String("--profile FILE is required")));
        r = pdctl({QStringLiteral("node"), QStringLiteral("frobnicate"), QStringLiteral("--profile"), kProfile});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QLatin1String("usage: pdctl node check")));
        r = pdctl(checkArgs({QStringLiteral("--timeout"), QStringLiteral("0")}));
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestPdctlNode)
#include "tst_pdctlnode.moc"
