// SPDX-License-Identifier: MIT
// The operations journal and what the next run makes of an operation cut short: entries round-trip and
// two processes' writers keep each other's entries; an entry whose process is gone (or whose pid now
// belongs to another process) is interrupted, one of a live process is not; a damaged file is named by
// file:line:column and never overwritten; the membership an interrupted remove or add may have left is
// marked (draining, waiting) and only where the reading says no more; the repairs of each kind.
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/interruptedoperations.h"
#include "ops/operationjournal.h"
#include "ops/scalecontext.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace pd;

namespace {

const QString kBase = QStringLiteral("http://127.0.0.1:8000");

OperationRecord record(const QString &id, const QString &kind, const QStringList &engines, const QStringList &reached)
{
    OperationRecord r;
    r.id = id;
    r.kind = kind;
    r.role = Role::Decode;
    r.unit = kind.startsWith(QLatin1String("group-")) ? QStringLiteral("decode@127.0.0.113:13395") : engines.value(0);
    r.engines = engines;
    r.started = QDateTime::currentDateTimeUtc().addSecs(-30);
    r.updated = QDateTime::currentDateTimeUtc().addSecs(-20);
    r.reached = reached;
    r.step = reached.value(reached.size() - 1);
    r.stepLabel = QStringLiteral("Drain: wait until no rank runs a request");
    r.stepStatus = QStringLiteral("running");
    r.owner = OperationOwner::self();
    return r;
}

// An owner that existed and is gone: a child process, killed and reaped.
OperationOwner deadOwner()
{
    QProcess p;
    p.start(QStringLiteral("sleep"), { QStringLiteral("30") });
    p.waitForStarted(10000);
    OperationOwner o = OperationOwner::self();
    o.pid = p.processId();
    o.program = QStringLiteral("pdctl");
    p.kill();
    p.waitForFinished(10000);
    return o;
}

const QStringList kRanks = { QStringLiteral("127.0.0.113:9000"), QStringLiteral("127.0.0.113:9001") };

} // namespace

class TestOperationJournal : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void entriesRoundTripAndTwoWritersKeepEachOthers()
    {
        const QString path = OperationJournal::pathFor(kBase, m_dir.filePath(QStringLiteral("a")));
        QVERIFY(path.endsWith(QLatin1String(".json")) && path.contains(QLatin1String("127.0.0.1-8000")));
        OperationJournal console(path, kBase), pdctl(path, kBase);
        OperationRecord a = record(QStringLiteral("aaaa1111"), QStringLiteral("group-scale-in"), kRanks,
            { QStringLiteral("preflight"), QStringLiteral("remove") });
        a.stopsEngines = true;
        OperationRecord b = record(QStringLiteral("bbbb2222"), QStringLiteral("scale-in"), { kRanks.first() },
            { QStringLiteral("preflight") });
        b.stopsEngines = false;
        QVERIFY2(console.put(a), qPrintable(console.lastError()));
        QVERIFY2(pdctl.put(b), qPrintable(pdctl.lastError()));
        QString error;
        auto all = console.load(&error);
        QVERIFY2(all, qPrintable(error));
        QCOMPARE(all->size(), 2);
        QCOMPARE(all->at(0).kind, a.kind);
        QCOMPARE(all->at(0).engines, kRanks);
        QCOMPARE(all->at(0).reached, a.reached);
        QCOMPARE(all->at(0).updated, a.updated);
        QCOMPARE(all->at(0).owner.pid, a.owner.pid);
        QCOMPARE(all->at(1).stopsEngines, false);
        // A step later: replaced by id, not appended.
        a.reached << QStringLiteral("drain");
        QVERIFY(console.put(a));
        all = pdctl.load(&error);
        QCOMPARE(all->size(), 2);
        QCOMPARE(all->at(0).reached.size(), 3);
        QVERIFY(pdctl.drop(a.id));
        QCOMPARE(console.load(&error)->size(), 1);
        // A live owner (this process) is not interrupted.
        QCOMPARE(console.interrupted(&error)->size(), 0);
    }

    void anEntryWhoseProcessIsGoneIsInterrupted()
    {
        const QString path = OperationJournal::pathFor(kBase, m_dir.filePath(QStringLiteral("b")));
        OperationJournal journal(path, kBase);
        OperationRecord gone = record(
            QStringLiteral("cccc3333"), QStringLiteral("group-scale-in"), kRanks, { QStringLiteral("remove") });
        gone.owner = deadOwner();
        OperationRecord reused
            = record(QStringLiteral("dddd4444"), QStringLiteral("scale-out"), { kRanks.first() }, {});
        reused.owner.startTicks += 12345; // this pid, but a process started at another time: not the owner
        OperationRecord live = record(QStringLiteral("eeee5555"), QStringLiteral("scale-out"), { kRanks.last() }, {});
        QVERIFY(journal.put(gone) && journal.put(reused) && journal.put(live));
        QString error;
        const auto cut = journal.interrupted(&error);
        QVERIFY2(cut, qPrintable(error));
        QStringList ids;
        for (const OperationRecord &r : *cut)
            ids << r.id;
        QCOMPARE(ids, QStringList({ gone.id, reused.id }));
        QVERIFY(!OperationOwner::self().describe().isEmpty());
        // Found by its first characters, as pdctl repair prints them; too short or ambiguous: none.
        QCOMPARE(findRecord(*cut, QStringLiteral("cccc"))->id, gone.id);
        QVERIFY(!findRecord(*cut, QStringLiteral("ccc")));
        QVERIFY(!findRecord(*cut, QStringLiteral("ffff")));
    }

    // A process killed whose parent has not reaped it yet (a zombie) still answers kill(pid, 0): it is gone all the
    // same.
    void aKilledProcessNotYetReapedIsGone()
    {
        QProcess parent; // forks a sleeper, then becomes a process that never waits for it
        parent.start(
            QStringLiteral("sh"), { QStringLiteral("-c"), QStringLiteral("sleep 30 & echo $!; exec sleep 30") });
        QVERIFY(parent.waitForStarted(5000));
        QVERIFY(parent.waitForReadyRead(5000));
        const qint64 child = parent.readLine().trimmed().toLongLong();
        QVERIFY(child > 0);
        OperationOwner o = OperationOwner::self();
        o.pid = child;
        o.startTicks = 0; // unknown: only the process's state can tell
        QVERIFY(o.isAlive());
        QVERIFY(::kill(pid_t(child), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!o.isAlive(), 5000);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1").arg(child))); // a zombie, not reaped
        parent.kill();
        parent.waitForFinished(5000);
    }

    void aDamagedFileIsNamedAndNeverOverwritten()
    {
        const QString path = OperationJournal::pathFor(kBase, m_dir.filePath(QStringLiteral("c")));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray damaged = "{\n  \"format\": \"pdconsole-operations\",\n  \"version\": 1,,\n}\n";
        f.write(damaged);
        f.close();
        OperationJournal journal(path, kBase);
        QString error;
        QVERIFY(!journal.load(&error));
        QVERIFY2(error.startsWith(path + QStringLiteral(":3:")), qPrintable(error));
        QVERIFY(!journal.put(record(QStringLiteral("ffff6666"), QStringLiteral("scale-in"), { kRanks.first() }, {})));
        QVERIFY2(journal.lastError().contains(path), qPrintable(journal.lastError()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), damaged);
        f.close();
        // A field of the wrong type: named by its place.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(
            R"({"format": "pdconsole-operations", "version": 1, "operations": [{"id": "x", "kind": "scale-in", "role": "decode", "unit": "u", "engines": [7]}]})");
        f.close();
        QVERIFY(!journal.load(&error));
        QVERIFY2(error.contains(QLatin1String("/operations/0/engines/0: not a string")), qPrintable(error));
    }

    void whatACutShortOperationMayHaveLeftIsMarked()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        table.setConfigured({ { kRanks.at(0), Role::Decode }, { kRanks.at(1), Role::Decode },
            { QStringLiteral("127.0.0.114:9000"), Role::Decode } });
        table.applyCommandLineLists({ {}, kRanks });
        QCOMPARE(table.fact(kRanks.at(0), Role::Decode), MembershipFact::Active);
        // Killed after it began its remove: the listed ranks may be draining (an add of them would be ignored).
        const OperationRecord removing = record(QStringLiteral("a1"), QStringLiteral("group-scale-in"), kRanks,
            { QStringLiteral("preflight"), QStringLiteral("remove"), QStringLiteral("drain") });
        QCOMPARE(assumeInterruptedMembership(removing, table), kRanks);
        QCOMPARE(table.fact(kRanks.at(1), Role::Decode), MembershipFact::Draining);
        QCOMPARE(table.record(kRanks.at(1), Role::Decode)->since, removing.updated);
        QVERIFY(assumeInterruptedMembership(removing, table).isEmpty()); // said once
        QVERIFY2(describeLeft(removing, table, nullptr).contains(QLatin1String("in the proxy: 2 draining")),
            qPrintable(describeLeft(removing, table, nullptr)));
        const QSet<QString> silent = { kRanks.at(1) };
        const QString left = describeLeft(removing, table, &silent);
        QVERIFY2(left.contains(QLatin1String("1 of 2 ranks answer")) && left.contains(QLatin1String("BROKEN")),
            qPrintable(left));
        // Killed after it began its add of an unlisted engine: it may be WAITING (never removed now, §8.1).
        const OperationRecord adding
            = record(QStringLiteral("b1"), QStringLiteral("scale-out"), { QStringLiteral("127.0.0.114:9000") },
                { QStringLiteral("preflight"), QStringLiteral("start-engine"), QStringLiteral("wait-ready"),
                    QStringLiteral("add") });
        QCOMPARE(assumeInterruptedMembership(adding, table).size(), 1);
        QCOMPARE(table.fact(QStringLiteral("127.0.0.114:9000"), Role::Decode), MembershipFact::Waiting);
        // Killed before its remove: nothing to assume.
        const OperationRecord early = record(
            QStringLiteral("c1"), QStringLiteral("scale-in"), { kRanks.first() }, { QStringLiteral("preflight") });
        QVERIFY(assumeInterruptedMembership(early, table).isEmpty());
        QVERIFY(describeInterrupted(removing).contains(
            QLatin1String("group-scale-in of decode DP group decode@127.0.0.113:13395 (2 ranks)")));
    }

    void eachKindHasItsRepairs()
    {
        ScaleContext ctx;
        ctx.engines = { EngineRef { kRanks.at(0), Role::Decode, QStringLiteral("d0"), 0 },
            EngineRef { kRanks.at(1), Role::Decode, QStringLiteral("d0"), 1 } };
        auto make = [&ctx](const OperationRecord &r, RepairAction a, QString *why) {
            return std::unique_ptr<ScaleOperation>(makeRepair(r, a, &ctx, why));
        };
        QString why;
        const OperationRecord groupIn
            = record(QStringLiteral("g"), QStringLiteral("group-scale-in"), kRanks, { QStringLiteral("remove") });
        auto finish = make(groupIn, RepairAction::Finish, &why);
        QVERIFY(finish);
        QCOMPARE(finish->kind(), QStringLiteral("group-scale-in"));
        QCOMPARE(finish->engineIds(), kRanks);
        auto undo = make(groupIn, RepairAction::Undo, &why);
        QVERIFY(undo);
        QCOMPARE(undo->kind(), QStringLiteral("group-scale-out"));
        QCOMPARE(qobject_cast<DpGroupOperation *>(undo.get())->groupId(), groupIn.unit);

        const OperationRecord restart = record(QStringLiteral("r"), QStringLiteral("group-restart"), kRanks, {});
        QCOMPARE(make(restart, RepairAction::Finish, &why)->kind(), QStringLiteral("group-restart"));
        QVERIFY(!make(restart, RepairAction::Undo, &why));
        QVERIFY2(why.contains(QLatin1String("nothing to undo")), qPrintable(why));

        OperationRecord keep = record(QStringLiteral("k"), QStringLiteral("scale-in"), { kRanks.first() }, {});
        keep.stopsEngines = false;
        QVERIFY(repairText(keep, RepairAction::Finish).contains(QLatin1String("keeps running")));
        QCOMPARE(make(keep, RepairAction::Finish, &why)->kind(), QStringLiteral("scale-in"));
        QCOMPARE(make(keep, RepairAction::Undo, &why)->kind(), QStringLiteral("scale-out"));
        const OperationRecord started = record(QStringLiteral("s"), QStringLiteral("start"), { kRanks.first() }, {});
        QCOMPARE(make(started, RepairAction::Undo, &why)->kind(), QStringLiteral("stop"));
        QCOMPARE(make(started, RepairAction::Finish, &why)->kind(), QStringLiteral("start"));

        // A proxy restart with new lists is checked by hand: the proxy may be down.
        const OperationRecord relist = record(QStringLiteral("p"), QStringLiteral("scale-out-restart"), kRanks, {});
        QVERIFY(!make(relist, RepairAction::Finish, &why));
        QVERIFY2(why.contains(QLatin1String("pdctl proxy status")), qPrintable(why));
        // An engine no longer in the profile is named.
        const OperationRecord stranger
            = record(QStringLiteral("x"), QStringLiteral("scale-in"), { QStringLiteral("127.0.0.9:1") }, {});
        QVERIFY(!make(stranger, RepairAction::Finish, &why));
        QVERIFY2(why.contains(QLatin1String("127.0.0.9:1 is not in the profile")), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestOperationJournal)
#include "tst_operationjournal.moc"
