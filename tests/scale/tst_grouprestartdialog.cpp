// SPDX-License-Identifier: MIT
// The confirmation an operator reads before "Restart the whole DP group" on the 8-node guide's layout (one decode
// group of 64, every rank active): the real dialog, shown offscreen, grabbed to
// build/.../group-restart-plan.png (docs/screenshots/group-restart-plan.png is a copy), then cancelled.
// What it must say: the whole group goes, the capacity lost is all 64 decode instances, the last-instance
// override is needed, and Cancel runs nothing.
#include "cluster/profileformat.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "operations/engineactionmenu.h"
#include "ops/engineactions.h"
#include "ops/scalecontext.h"
#include "ops/scalerunner.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QPlainTextEdit>
#include <QTest>
#include <QTimer>

using namespace pd;

class TestGroupRestartDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theDialogStatesTheWholeGroupAndTheCapacityLost()
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
        QVERIFY(loaded.profile);
        const Profile &profile = *loaded.profile;
        const QList<EngineRef> refs = engineRefs(profile);

        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        QList<QPair<QString, Role>> configured;
        QStringList prefill, decode;
        for (const EngineRef &e : refs) {
            configured.append({e.id, e.role});
            (e.role == Role::Prefill ? prefill : decode) << e.id;
        }
        table.setConfigured(configured);
        ProxyReply listed;
        listed.ok = true;
        listed.lists = ProxyLists{prefill, decode};
        for (const QString &id : decode)
            table.noteAddSent(id, Role::Decode, listed);

        ScaleContext ctx;
        ctx.proxy = &proxy;
        ctx.membership = &table;
        setScaleContextProfile(ctx, profile);
        ScaleRunner runner(&ctx);
        EngineActions actions(&ctx, &runner);
        QWidget window;
        window.resize(1400, 900);
        window.show();
        EngineActionMenu menu(&actions, refs, &window);

        int rank = -1;
        for (int i = 0; i < refs.size() && rank < 0; ++i)
            if (refs.at(i).id == QLatin1String("127.0.0.7:9003"))
                rank = i;
        QVERIFY(rank >= 0);

        QString shown;
        bool overrideOffered = false;
        QTimer::singleShot(200, this, [&] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            if (auto *text = dialog->findChild<QPlainTextEdit *>())
                shown = dialog->windowTitle() + QLatin1Char('\n') + text->toPlainText();
            overrideOffered = dialog->findChild<QCheckBox *>() != nullptr;
            dialog->adjustSize();
            dialog->grab().save(QStringLiteral(PD_BINARY_DIR "/group-restart-plan.png"));
            dialog->reject();
        });
        const bool started = menu.trigger(EngineAction::RestartGroup, {rank}, QStringLiteral("DP group decode@127.0.0.6:13395"));
        QVERIFY(!started); // cancelled: nothing runs
        QVERIFY2(shown.contains(QLatin1String("decode@127.0.0.6:13395")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("64 ranks")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("decode loses 64 of 64 instances")), qPrintable(shown));
        QVERIFY(overrideOffered); // the group holds every decode instance
        QCOMPARE(runner.runningCount(), 0);
    }
};

QTEST_MAIN(TestGroupRestartDialog)
#include "tst_grouprestartdialog.moc"
