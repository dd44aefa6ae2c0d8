// SPDX-License-Identifier: MIT
// Which nodes a status round reached, from its outcomes: one answered engine makes a node reachable, an
// engine whose status could not run (no process learnt, an error) makes it unreachable only if none of
// its engines answered; outcomes of engines the profile does not name are ignored.
#include "ops/nodereachability.h"
#include "topology/syntheticprofile.h"

#include <QTest>

using namespace pd;

class TestNodeReachability : public QObject {
    Q_OBJECT

    static ProcessOutcome outcome(const Engine &e, ProcessFact fact, const QString &error = {})
    {
        ProcessOutcome o;
        o.id = e.id();
        o.action = ProcessAction::Status;
        o.process = fact;
        o.ok = error.isEmpty();
        o.error = error;
        return o;
    }

private Q_SLOTS:
    void answeredAndUnreachableNodes()
    {
        const Profile profile = syntheticProfile(64, 16, 0.25); // p0 (16), d0..d2 (16 each)
        QCOMPARE(profile.nodes.size(), 4);
        QList<Engine> engines = profile.engines();
        QList<ProcessOutcome> outcomes;
        const QString refused = QStringLiteral("ssh: connection refused by 10.2.0.1:22");
        for (const Engine &e : engines) {
            if (e.nodeIndex == 1) // d0: every status failed at the transport
                outcomes << outcome(e, ProcessFact::Unknown, refused);
            else if (e.nodeIndex == 2 && e.localRank == 0) // d1: one failed, another answered
                outcomes << outcome(e, ProcessFact::Unknown, QStringLiteral("timeout"));
            else if (e.nodeIndex == 2)
                outcomes << outcome(e, ProcessFact::Exited);
            else if (e.nodeIndex == 0)
                outcomes << outcome(e, ProcessFact::Running);
            // d2: no outcome at all
        }
        ProcessOutcome stranger;
        stranger.id = QStringLiteral("192.0.2.1:9000");
        stranger.error = QStringLiteral("not in the profile");
        outcomes << stranger;

        const NodeReachability r = nodeReachability(profile, outcomes);
        QCOMPARE(r.answered, (QList<int>{0, 2}));
        QCOMPARE(r.unreachable.size(), 1);
        QCOMPARE(r.unreachable.value(1), refused);
        QVERIFY(!r.unreachable.contains(3));
    }

    void aLargeRoundIsLinear()
    {
        // 8,192 engines: engines × outcomes string comparisons would be 67 million id strings.
        const Profile profile = syntheticProfile(8192);
        QList<ProcessOutcome> outcomes;
        for (const Engine &e : profile.engines())
            outcomes << outcome(e, ProcessFact::Exited);
        const NodeReachability r = nodeReachability(profile, outcomes);
        QCOMPARE(r.answered.size(), profile.nodes.size());
        QVERIFY(r.unreachable.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNodeReachability)
#include "tst_nodereachability.moc"
