// SPDX-License-Identifier: MIT
// A profile that fails validation is never acted on (its values reach shells; pdctl refuses it): with
// ScaleSettings::profileErrors set, as the console sets it from its profile's validation, every path
// that changes the cluster refuses with the reason, even with read-only mode off: the engine menu's
// plans (audited as refused), a pool resize plan, the proxy actions and an operation already queued.
// No process or network is touched: nothing is listening and nothing needs to.
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/engineactions.h"
#include "ops/proxyactions.h"
#include "ops/scalecontext.h"
#include "ops/scaleout.h"
#include "ops/scaleplan.h"
#include "ops/scalerunner.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestInvalidProfile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyChangeIsRefused()
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        QTemporaryDir dir;
        AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
        ProxyClient proxy;
        MembershipReconciler membership(&proxy);
        ScaleContext ctx;
        ctx.proxy = &proxy;
        ctx.membership = &membership;
        ctx.audit = &audit;
        setScaleContextProfile(ctx, *loaded.profile);
        ctx.settings.profileErrors = 2;
        ctx.settings.readOnly = false; // the read-only switch does not lift it
        QVERIFY(mutationRefusal(ctx).contains(QLatin1String("2 validation error(s)")));

        ScaleRunner runner(&ctx);
        EngineActions actions(&ctx, &runner);
        const QList<EngineRef> refs = engineRefs(*loaded.profile);
        const EngineRef decoder = refs.constLast();
        for (const EngineAction action : {EngineAction::Start, EngineAction::Stop, EngineAction::ForceStop, EngineAction::Restart}) {
            const EngineActionPlan plan = actions.plan(action, {decoder});
            QVERIFY2(plan.refusal.contains(QLatin1String("validation error")), qPrintable(engineActionName(action) + QLatin1String(": ") + plan.refusal));
            QVERIFY(!plan.canRun(true));
            QVERIFY(actions.run(plan, true).isEmpty());
        }
        const ScalePlan resize = planPoolScale(Role::Decode, 64, refs, ctx.groups, membership, {}, ctx.settings);
        QVERIFY2(resize.blocked.contains(QLatin1String("validation error")), qPrintable(resize.blocked));
        QVERIFY(runner.apply(resize, true).isEmpty());

        ProxyActions proxyActions(&ctx);
        QString why;
        QVERIFY(!proxyActions.run(ProxyAction::Restart, &why));
        QVERIFY2(why.contains(QLatin1String("validation error")), qPrintable(why));

        // An operation queued before the profile turned invalid (a reload) fails at its start, audited.
        auto *queued = new ScaleOut(decoder, &ctx);
        runner.enqueue(queued);
        QTRY_VERIFY_WITH_TIMEOUT(queued->isFinished(), 5000);
        QCOMPARE(queued->outcome(), OperationOutcome::Failed);
        QVERIFY2(queued->summary().contains(QLatin1String("validation error")), qPrintable(queued->summary()));

        QFile log(audit.path());
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray lines = log.readAll();
        QVERIFY2(lines.count("\"result\":\"refused\"") == 4 + 1 + 1, lines.constData()); // four plans, the proxy restart, the operation
    }
};

QTEST_GUILESS_MAIN(TestInvalidProfile)
#include "tst_invalidprofile.moc"
