// SPDX-License-Identifier: MIT
// File ▸ Import Cluster…: the importers pdctl has, with a preview of the profile and of
// its problems before anything is saved. The two-node A2 guide's sources give the bundled 2-node profile's roles; a
// broken script shows its file:line and blocks Save; the saved profile opens in the window.
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "importdialog.h"
#include "mainwindow.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

namespace {

QString data(const QString &name) { return QStringLiteral(PD_SOURCE_DIR "/tests/data/import/") + name; }

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void fillSeed001(ImportDialog &dialog)
{
    dialog.setProxyCommandLine(readText(data(QStringLiteral("seed001-proxy.txt"))));
    dialog.setRanktablePath(data(QStringLiteral("ranktable-seed001-a2.json")));
    dialog.setStartScripts({data(QStringLiteral("seed001-start_prefill.sh")), data(QStringLiteral("seed001-start_decode.sh"))});
    dialog.setContainer(QStringLiteral("docker"), QStringLiteral("vllm_deepseek_pd"));
    dialog.setEnvScripts({QStringLiteral("/home/your_name/cann_8.2.rc1/ascend-toolkit/set_env.sh"),
                          QStringLiteral("/home/your_name/cann_8.2.rc1/nnal/atb/set_env.sh")});
    dialog.setClusterName(QStringLiteral("seed001"));
    dialog.refreshPreview();
}

} // namespace

class TestImportDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void emptyFormCannotSave()
    {
        ImportDialog dialog;
        QVERIFY(!dialog.canSave());
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("importSave"))->isEnabled());
        QString error;
        QVERIFY(!dialog.saveTo(m_dir.filePath(QStringLiteral("empty.json")), &error));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("empty.json"))));
    }

    void seed001PreviewsAndSavesTheBundledRoles()
    {
        ImportDialog dialog;
        fillSeed001(dialog);
        QVERIFY2(dialog.canSave(), qPrintable(dialog.problemsText()));
        QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("importSave"))->isEnabled());
        // The preview: the nodes and engines, the proxy's generation, and why it is v0.9.1-dev.
        QVERIFY2(dialog.previewText().contains(QStringLiteral("141.61.41.164")), qPrintable(dialog.previewText()));
        QVERIFY2(dialog.previewText().contains(QStringLiteral("v0.9.1-dev")), qPrintable(dialog.previewText()));
        QVERIFY2(dialog.problemsText().contains(QStringLiteral("disaggregate_prefill_v1")), qPrintable(dialog.problemsText()));

        const QString path = m_dir.filePath(QStringLiteral("seed001.json"));
        QSignalSpy saved(&dialog, &ImportDialog::saved);
        QString error;
        QVERIFY2(dialog.saveTo(path, &error), qPrintable(error));
        QCOMPARE(saved.count(), 1);
        const ProfileLoadResult got = loadProfileFile(path);
        const ProfileLoadResult bundled = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-v3-2node-a2.json"));
        QVERIFY(got.profile && bundled.profile);
        QVERIFY(got.profile->prefill == bundled.profile->prefill);
        QVERIFY(got.profile->decode == bundled.profile->decode);
        QCOMPARE(got.profile->name, QStringLiteral("seed001"));
    }

    void aBrokenScriptIsNamedAndBlocksSave()
    {
        const QString script = m_dir.filePath(QStringLiteral("start_broken.sh"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("export HCCL_IF_IP=10.0.0.2\n\nvllm serve /m \\\n  --kv-transfer-config '{\"kv_role\": kv_consumer}'\n");
        f.close();
        ImportDialog dialog;
        dialog.setStartScripts({script});
        dialog.refreshPreview();
        QVERIFY(!dialog.canSave());
        QVERIFY2(dialog.problemsText().contains(QStringLiteral("start_broken.sh:3: --kv-transfer-config is not JSON")),
                 qPrintable(dialog.problemsText()));
        // A file that is not there is named too.
        dialog.setStartScripts({m_dir.filePath(QStringLiteral("missing.sh"))});
        dialog.refreshPreview();
        QVERIFY(!dialog.canSave());
        QVERIFY2(dialog.problemsText().contains(QStringLiteral("missing.sh: cannot open")), qPrintable(dialog.problemsText()));
    }

    void theWindowOpensWhatWasSaved()
    {
        test::WindowFixture f;
        MainWindow &window = f.window;
        QAction *action = window.findChild<QAction *>(QStringLiteral("importClusterAction"));
        QVERIFY(action);
        action->trigger();
        ImportDialog *dialog = window.findChild<ImportDialog *>();
        QVERIFY(dialog);
        fillSeed001(*dialog);
        QString error;
        const QString path = m_dir.filePath(QStringLiteral("opened.json"));
        QVERIFY2(dialog->saveTo(path, &error), qPrintable(error));
        QCOMPARE(f.store.profilePath(), path);
        QCOMPARE(f.store.profile().nodes.size(), 2);
        if (const QByteArray dir = qgetenv("PD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog->resize(1400, 900);
            dialog->grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("import-dialog.png")));
        }
    }
};

QTEST_MAIN(TestImportDialog)
#include "tst_importdialog.moc"
