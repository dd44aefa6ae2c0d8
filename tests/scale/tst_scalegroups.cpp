// SPDX-License-Identifier: MIT
// Pool scaling by whole coupled DP groups (docs/scaling.md), without a network: the plan for a profile
// with four coupled decode groups of two ranks (tests/scale/data/scale-groups.json) starts and removes
// whole groups, refuses sizes no set of groups reaches (naming the reachable ones), never removes a group
// with a WAITING rank, and the runner turns each group into one operation over all its ranks. An
// independent profile keeps its per-rank plans. `pdctl scale` refuses an unreachable size before it
// contacts anything.
#include "cluster/dpgroups.h"
#include "cluster/profileformat.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/rollingrestart.h"
#include "ops/scaleplan.h"
#include "ops/scalerunner.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace pd;

class TestScaleGroups : public QObject {
    Q_OBJECT

    Profile m_profile;
    QList<EngineRef> m_refs;
    DpGroups m_groups;

    static Profile load(const QString &file)
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/") + file);
        if (!loaded.profile)
            qFatal("cannot load %s", qPrintable(file));
        return *loaded.profile;
    }

    static QString id(int node, int port) { return QStringLiteral("127.0.0.%1:%2").arg(113 + node).arg(port); }
    static QString groupId(int node) { return QStringLiteral("decode@127.0.0.%1:13395").arg(113 + node); }

    // A membership table where `active` are listed and `waiting` were added but not listed yet.
    static void fill(MembershipReconciler &table, const QList<EngineRef> &refs, const QStringList &active, const QStringList &waiting = {})
    {
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : refs)
            configured.append({e.id, e.role});
        table.setConfigured(configured);
        ProxyReply listed;
        listed.ok = true;
        listed.lists = ProxyLists{{}, active};
        for (const QString &e : active)
            table.noteAddSent(e, Role::Decode, listed);
        for (const QString &e : waiting)
            table.noteAddSent(e, Role::Decode, ProxyReply { true, 200, {}, {}, std::nullopt, 0, false });
    }

    // The engine actions on a context whose proxy client and membership table are their own (filled as
    // fill() says) and whose profile is m_profile, with a runner: what the plans and runs below need.
    struct Planning {
        ProxyClient proxy;
        MembershipReconciler table { &proxy };
        ScaleContext ctx;
        ScaleRunner runner { &ctx };
        EngineActions actions { &ctx, &runner };
    };
    std::unique_ptr<Planning> planning(const QStringList &active) const
    {
        auto p = std::make_unique<Planning>();
        fill(p->table, m_refs, active);
        p->ctx.proxy = &p->proxy;
        p->ctx.membership = &p->table;
        setScaleContextProfile(p->ctx, m_profile);
        return p;
    }

    EngineRef ref(const QString &engineId) const
    {
        for (const EngineRef &e : m_refs)
            if (e.id == engineId)
                return e;
        return {};
    }

    static QStringList ids(const QList<EngineRef> &refs)
    {
        QStringList out;
        for (const EngineRef &e : refs)
            out << e.id;
        out.sort();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_profile = load(QStringLiteral("tests/scale/data/scale-groups.json"));
        m_refs = engineRefs(m_profile);
        m_groups = DpGroups(m_profile);
        QCOMPARE(m_groups.ofRole(Role::Decode).size(), 4);
        QCOMPARE(m_groups.reachableSizes(Role::Decode), (QList<int>{0, 2, 4, 6, 8}));
    }

    void unreachableSizeIsRefusedNamingTheReachableOnes()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001)});
        const ScalePlan plan = planPoolScale(Role::Decode, 5, m_refs, m_groups, table, {}, {});
        QCOMPARE(plan.current, 4);
        QVERIFY(plan.toStart.isEmpty());
        QVERIFY(!plan.canApply(true));
        QVERIFY2(plan.blocked.contains(QLatin1String("decode can be 0, 2, 4, 6 or 8")), qPrintable(plan.blocked));
        QVERIFY2(plan.blocked.contains(QLatin1String("the nearest are 4 and 6")), qPrintable(plan.blocked));
        QVERIFY(plan.describe().contains(plan.blocked));
        QCOMPARE(unreachablePoolSize(m_groups, Role::Decode, 6), QString());

        // The 8-node guide's layout: one coupled decode group of 64.
        const Profile demo = load(QStringLiteral("resources/profiles/demo-loopback.json"));
        const QString refusal = unreachablePoolSize(DpGroups(demo), Role::Decode, 60);
        QVERIFY2(refusal.startsWith(QLatin1String("decode can be 0 or 64")), qPrintable(refusal));
        QVERIFY2(refusal.contains(QLatin1String("the nearest are 0 and 64")), qPrintable(refusal));
    }

    void scaleUpStartsWholeGroupsInProfileOrder()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001)});
        const ScalePlan six = planPoolScale(Role::Decode, 6, m_refs, m_groups, table, {}, {});
        QVERIFY2(six.canApply(false), qPrintable(six.describe()));
        QCOMPARE(six.groupsToStart, QStringList{groupId(2)});
        QCOMPARE(ids(six.toStart), (QStringList{id(2, 9000), id(2, 9001)}));
        QCOMPARE(six.groupRanks.value(groupId(2)).size(), 2);
        QVERIFY2(six.describe().contains(QLatin1String("start DP group decode@127.0.0.115:13395: all 2 ranks at once")), qPrintable(six.describe()));

        const ScalePlan eight = planPoolScale(Role::Decode, 8, m_refs, m_groups, table, {}, {});
        QCOMPARE(eight.groupsToStart, (QStringList{groupId(2), groupId(3)}));
        QCOMPARE(eight.toStart.size(), 4);
    }

    // A coupled group with one rank that does not answer is broken: its ranks do not count as serving,
    // the plan names the group and says to restart it whole, and never starts a lone rank in its place.
    void aGroupWithADeadRankDoesNotCountAndIsNamed()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001)});
        const QSet<QString> dead{id(1, 9001)};
        const ScalePlan plan = planPoolScale(Role::Decode, 4, m_refs, m_groups, table, {}, {}, dead);
        QCOMPARE(plan.current, 3); // the dead rank is not serving
        QCOMPARE(plan.deadInProxy, QStringList{id(1, 9001)});
        QVERIFY(!plan.canApply(true));
        QVERIFY2(plan.blocked.contains(QStringLiteral("DP group %1 has 1 rank(s) that do not answer").arg(groupId(1))), qPrintable(plan.blocked));
        QVERIFY(plan.toStart.isEmpty());
        QVERIFY2(plan.describe().contains(QLatin1String("not counted")), qPrintable(plan.describe()));
    }

    void scaleDownRemovesTheLeastLoadedWholeGroup()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001), id(2, 9000), id(2, 9001)});
        // d1's ranks are busier one by one than d0's rank 1, but d1 is the least loaded group.
        const QHash<QString, EngineLoad> loads{{id(0, 9000), {5, 0, 0}}, {id(0, 9001), {0, 0, 0}},
                                               {id(1, 9000), {1, 0, 0}}, {id(1, 9001), {1, 0, 0}},
                                               {id(2, 9000), {3, 1, 0}}, {id(2, 9001), {2, 0, 0}}};
        const ScalePlan plan = planPoolScale(Role::Decode, 4, m_refs, m_groups, table, loads, {});
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QCOMPARE(plan.groupsToRemove, QStringList{groupId(1)});
        QCOMPARE(ids(plan.toRemove), (QStringList{id(1, 9000), id(1, 9001)}));
        QCOMPARE(plan.affectedRequests, 2.0);

        const ScalePlan two = planPoolScale(Role::Decode, 2, m_refs, m_groups, table, loads, {});
        QCOMPARE(two.groupsToRemove, (QStringList{groupId(1), groupId(0)}));
        const ScalePlan none = planPoolScale(Role::Decode, 0, m_refs, m_groups, table, loads, {});
        QCOMPARE(none.groupsToRemove.size(), 3);
        QVERIFY(none.needsOverride);
    }

    void aGroupWithAWaitingRankNeverLeaves()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000)}, {id(1, 9001)});
        QCOMPARE(table.fact(id(1, 9001), Role::Decode), MembershipFact::Waiting);
        // d1 is idle, d0 busy: still d0 leaves, since d1 has a WAITING rank (§8.1).
        const QHash<QString, EngineLoad> loads{{id(0, 9000), {4, 0, 0}}, {id(0, 9001), {4, 0, 0}}, {id(1, 9000), {0, 0, 0}}};
        const ScalePlan plan = planPoolScale(Role::Decode, 2, m_refs, m_groups, table, loads, {});
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QCOMPARE(plan.groupsToRemove, QStringList{groupId(0)});

        const ScalePlan none = planPoolScale(Role::Decode, 0, m_refs, m_groups, table, loads, {});
        QVERIFY(!none.canApply(true));
        QVERIFY2(none.blocked.contains(QLatin1String("decode@127.0.0.114:13395 has 1 rank(s) still WAITING")), qPrintable(none.blocked));
    }

    void aGroupWithARankRoutedAroundLeavesWhole()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        // d1's rank 1 was taken out of the proxy alone (it still runs with its group).
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000)});
        const QHash<QString, EngineLoad> loads{{id(0, 9000), {3, 0, 0}}, {id(0, 9001), {3, 0, 0}}, {id(1, 9000), {1, 0, 0}}};
        const ScalePlan down = planPoolScale(Role::Decode, 2, m_refs, m_groups, table, loads, {});
        QVERIFY2(down.canApply(false), qPrintable(down.describe()));
        QCOMPARE(down.groupsToRemove, QStringList{groupId(1)});
        QCOMPARE(ids(down.toRemove), QStringList{id(1, 9000)});
        QCOMPARE(down.groupRanks.value(groupId(1)).size(), 2); // both ranks stop

        const ScalePlan up = planPoolScale(Role::Decode, 4, m_refs, m_groups, table, loads, {});
        QVERIFY(!up.canApply(true));
        QVERIFY2(up.blocked.contains(QLatin1String("DP group decode@127.0.0.114:13395 is partly in the proxy (1 of 2 ranks)")),
                 qPrintable(up.blocked));
    }

    void independentRanksKeepPerRankPlans()
    {
        const Profile profile = load(QStringLiteral("tests/scale/data/scale-pdctl.json"));
        const QList<EngineRef> refs = engineRefs(profile);
        const DpGroups groups(profile);
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, refs, {QStringLiteral("127.0.0.73:9000"), QStringLiteral("127.0.0.73:9001"), QStringLiteral("127.0.0.73:9002"),
                           QStringLiteral("127.0.0.73:9003")});
        const ScalePlan plan = planPoolScale(Role::Decode, 5, refs, groups, table, {}, {});
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QVERIFY(plan.groupsToStart.isEmpty());
        QCOMPARE(ids(plan.toStart), QStringList{QStringLiteral("127.0.0.73:9004")});
        const ScalePlan down = planPoolScale(Role::Decode, 3, refs, groups, table, {}, {});
        QCOMPARE(down.toRemove.size(), 1);
        QVERIFY(down.groupsToRemove.isEmpty());
    }

    void theRunnerRunsAGroupAsOneOperation()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        fill(table, m_refs, {id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001)});
        ScaleContext ctx;
        ctx.proxy = &proxy;
        ctx.membership = &table;
        ctx.groups = m_groups;
        const ScalePlan plan = planPoolScale(Role::Decode, 8, m_refs, m_groups, table, {}, ctx.settings);
        QVERIFY(plan.canApply(false));
        // Read-only from here: the operations end at their first step without touching anything.
        ctx.settings.readOnly = true;
        ScaleRunner runner(&ctx);
        runner.setParallelCap(1);
        const QList<ScaleOperation *> ops = runner.apply(plan, false);
        QCOMPARE(ops.size(), 2);
        for (int i = 0; i < 2; ++i) {
            auto *group = qobject_cast<DpGroupOperation *>(ops.at(i));
            QVERIFY(group);
            QCOMPARE(group->kind(), QStringLiteral("group-scale-out"));
            QCOMPARE(group->groupId(), groupId(2 + i));
            QCOMPARE(group->engineIds(), (QStringList{id(2 + i, 9000), id(2 + i, 9001)}));
        }
        QSignalSpy idle(&runner, &ScaleRunner::idle);
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 5000);
        for (ScaleOperation *op : ops)
            QCOMPARE(op->outcome(), OperationOutcome::Failed);
    }

    void loneRankStopsAreSkippedUnlessGroupsMayBreak()
    {
        const auto planned = planning({ id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001) });
        auto &[proxy, table, ctx, runner, actions] = *planned;
        const EngineRef lone = ref(id(0, 9001));
        for (const EngineAction action : {EngineAction::Stop, EngineAction::ForceStop, EngineAction::Restart}) {
            const EngineActionPlan plan = actions.plan(action, {lone});
            QVERIFY(!plan.canRun(true));
            QCOMPARE(plan.skipped.size(), 1);
            QCOMPARE(plan.skipReasons.value(0),
                     QStringLiteral("would break DP group decode@127.0.0.113:13395; stop or restart the whole group, or remove it from the proxy"));
            QCOMPARE(actions.plan(action, {lone}, {}, true).engines.size(), 1); // the explicit override
        }
        // Routing around one rank is harmless: it keeps running with its group.
        QCOMPARE(actions.plan(EngineAction::RemoveFromProxy, {lone}).engines.size(), 1);

        // A selection holding the whole group stops it as one group operation.
        const EngineRef other = ref(id(0, 9000));
        const EngineActionPlan stop = actions.plan(EngineAction::Stop, {lone, other});
        QVERIFY2(stop.canRun(false), qPrintable(stop.text()));
        QCOMPARE(stop.groups, QStringList{groupId(0)});
        QCOMPARE(stop.engines.size(), 2);
        QVERIFY2(stop.text().contains(QLatin1String("decode loses 2 of 4 instances")), qPrintable(stop.text()));

        // "Restart the whole DP group" from one rank: its whole group.
        const EngineActionPlan viaRank = actions.plan(EngineAction::RestartGroup, {lone});
        QCOMPARE(viaRank.groups, QStringList{groupId(0)});
        QCOMPARE(viaRank.engines.size(), 2);
    }

    void restartGroupPlansTheWholeGroupAndStatesTheCapacityLost()
    {
        const auto planned = planning({ id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001) });
        auto &[proxy, table, ctx, runner, actions] = *planned;

        const EngineActionPlan plan = actions.planRestartGroup(groupId(1));
        QVERIFY2(plan.canRun(false), qPrintable(plan.text()));
        QVERIFY(plan.destructive);
        QVERIFY(!plan.needsOverride);
        QCOMPARE(plan.action, EngineAction::RestartGroup);
        QCOMPARE(plan.groups, QStringList{groupId(1)});
        QCOMPARE(ids(plan.engines), (QStringList{id(1, 9000), id(1, 9001)}));
        QCOMPARE(plan.engines.first().node, QStringLiteral("d1"));
        QVERIFY2(plan.text().contains(QLatin1String("decode loses 2 of 4 instances until the group serves again")), qPrintable(plan.text()));
        QVERIFY2(plan.text().contains(QLatin1String("one deadline of 3600 s")), qPrintable(plan.text()));

        QVERIFY(!actions.planRestartGroup(QStringLiteral("decode@10.0.0.1:1")).canRun(true));

        // The group holding every active decode instance: restarting it empties the pool.
        MembershipReconciler alone(&proxy);
        fill(alone, m_refs, {id(3, 9000), id(3, 9001)});
        ctx.membership = &alone;
        const EngineActionPlan last = actions.planRestartGroup(groupId(3));
        QVERIFY(last.needsOverride);
        QVERIFY(last.text().contains(QLatin1String("decode loses 2 of 2 instances")));
        ctx.membership = &table;

        // run(): one group-restart operation over both ranks (read-only from here: it ends at once).
        ctx.settings.readOnly = true;
        const QList<ScaleOperation *> ops = actions.run(plan, false);
        QCOMPARE(ops.size(), 1);
        auto *group = qobject_cast<DpGroupOperation *>(ops.first());
        QVERIFY(group);
        QCOMPARE(group->kind(), QStringLiteral("group-restart"));
        QCOMPARE(group->engineIds(), (QStringList{id(1, 9000), id(1, 9001)}));
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 5000);
    }

    void rollingRestartGoesGroupByGroup()
    {
        ScaleContext ctx;
        setScaleContextProfile(ctx, m_profile);
        ScaleRunner runner(&ctx);
        // One rank of d0 and both of d1 chosen: two units, each a whole group.
        RollingRestart rolling({ref(id(1, 9001)), ref(id(0, 9001)), ref(id(1, 9000))}, 1, &ctx, &runner);
        QCOMPARE(rolling.total(), 2);
        rolling.setBreakGroups(true);
        QCOMPARE(rolling.total(), 3);
    }

    void aWholeGroupChosenStartsAsOneGroup()
    {
        const auto planned = planning({ id(0, 9000), id(0, 9001), id(1, 9000), id(1, 9001) });
        auto &[proxy, table, ctx, runner, actions] = *planned;
        const EngineActionPlan add = actions.plan(EngineAction::StartAndAdd, {ref(id(2, 9000)), ref(id(2, 9001))});
        QCOMPARE(add.groups, QStringList{groupId(2)});
        QVERIFY2(add.text().contains(QLatin1String("all started at once, waited for with one deadline of 3600 s, then all added")),
                 qPrintable(add.text()));
        QVERIFY(!add.destructive);
        const EngineActionPlan start = actions.plan(EngineAction::Start, {ref(id(2, 9000)), ref(id(2, 9001))});
        QCOMPARE(start.groups, QStringList{groupId(2)});
        // A group with ranks in the proxy: the missing ones are added back rank by rank.
        QVERIFY(actions.plan(EngineAction::AddToProxy, {ref(id(0, 9000)), ref(id(0, 9001))}).groups.isEmpty());

        ctx.settings.readOnly = true;
        const QList<ScaleOperation *> ops = actions.run(start, false);
        QCOMPARE(ops.size(), 1);
        QCOMPARE(ops.first()->kind(), QStringLiteral("group-start"));
        QCOMPARE(actions.run(add, false).first()->kind(), QStringLiteral("group-scale-out"));
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 5000);
    }

    void pdctlRefusesAnUnreachableSizeBeforeContactingAnything_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one group of 64") << QStringLiteral("resources/profiles/demo-loopback.json") << QStringLiteral("60")
                                         << QStringLiteral("decode can be 0 or 64");
        QTest::newRow("four groups of 2") << QStringLiteral("tests/scale/data/scale-groups.json") << QStringLiteral("3")
                                          << QStringLiteral("decode can be 0, 2, 4, 6 or 8");
    }
    void pdctlRefusesAnUnreachableSizeBeforeContactingAnything()
    {
        QFETCH(QString, profile);
        QFETCH(QString, to);
        QFETCH(QString, expected);
        QProcess p;
        // No --sim-control and no proxy running: the refusal comes from the profile alone.
        p.start(QStringLiteral(PD_BINARY_DIR "/app/pdctl/pdctl"),
                {QStringLiteral("scale"), QStringLiteral("--profile"), QStringLiteral(PD_SOURCE_DIR "/") + profile, QStringLiteral("--pool"),
                 QStringLiteral("decode"), QStringLiteral("--to"), to, QStringLiteral("--yes")});
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(out.contains(expected), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("not applied")), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestScaleGroups)
#include "tst_scalegroups.moc"
