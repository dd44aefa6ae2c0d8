// SPDX-License-Identifier: MIT
// ProblemModel, EventModel and EventFilterModel under QAbstractItemModelTester while the cluster's
// facts change round after round.
#include "models/eventmodel.h"
#include "models/modelroles.h"
#include "models/problemmodel.h"
#include "state/statetracker.h"
#include "statetestutil.h"
#include "triage/triage.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>

using namespace pd;
using namespace pd::test;

class TestStateModels : public QObject {
    Q_OBJECT

private:
    DemoRounds round;

private Q_SLOTS:
    void problemModelFollowsTriage()
    {
        ClusterStore store;
        QVERIFY(loadDemo(&store, DemoCoupling::Independent));
        StateTracker tracker(&store);
        Triage triage(&tracker, &store);
        ProblemModel model(&triage);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        store.applyPollBatch(round({}));
        QCOMPARE(model.rowCount(), 0);
        const QList<PollOutcome> bad { failed(30, PollStatus::Refused), failed(40, PollStatus::Timeout) };
        store.applyPollBatch(round(bad));
        store.applyPollBatch(round(bad));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ProblemModel::WhatColumn).data().toString(), QStringLiteral("Proxy routes to a dead engine"));
        QCOMPARE(model.index(0, 0).data(EngineIndexRole).toInt(), 30);
        QCOMPARE(model.index(1, 0).data(EngineIndexRole).toInt(), 40);
        QCOMPARE(model.index(0, 0).data(ProblemSeverityRole).toInt(), int(ProblemSeverity::Error));
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Next step:")));
        const QPersistentModelIndex forty(model.index(1, 0));
        // A more urgent problem arrives on top; the row of engine 40 keeps its identity.
        ProxyHealth down;
        down.error = QStringLiteral("Connection refused");
        tracker.applyProxyHealth(down);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, 0).data(ProblemKeyRole).toString(), QStringLiteral("proxy-unreachable"));
        QVERIFY(forty.isValid());
        QCOMPARE(forty.row(), 2);
        QCOMPARE(forty.data(EngineIndexRole).toInt(), 40);
        triage.acknowledge(QStringLiteral("listed-but-dead:40"));
        QVERIFY(forty.data(AcknowledgedRole).toBool());
        QVERIFY(forty.sibling(forty.row(), ProblemModel::WhatColumn)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("(acknowledged)")));
        // Engine 30 recovers, the proxy comes back.
        store.applyPollBatch(round({ failed(40, PollStatus::Timeout) }));
        ProxyHealth up;
        up.reachable = true;
        up.prefillInstances = 8;
        up.decodeInstances = 64;
        tracker.applyProxyHealth(up);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(forty.row(), 0);
        // A new profile empties it.
        QVERIFY(loadDemo(&store));
        QCOMPARE(model.rowCount(), 0);
    }

    void eventModelAppendsAndFilters()
    {
        ClusterStore store;
        QVERIFY(loadDemo(&store, DemoCoupling::Independent));
        StateTracker tracker(&store);
        EventModel events(&tracker);
        EventFilterModel filter;
        filter.setSourceModel(&events);
        QAbstractItemModelTester t1(&events, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        store.applyPollBatch(round({}));
        QCOMPARE(events.rowCount(), 72); // unknown → serving for every engine
        const QList<PollOutcome> bad { failed(30, PollStatus::Refused) };
        store.applyPollBatch(round(bad));
        store.applyPollBatch(round(bad));
        QCOMPARE(events.rowCount(), 73);
        const QModelIndex last = events.index(72, EventModel::WhatColumn);
        QCOMPARE(last.data().toString(), QStringLiteral("serving → unreachable"));
        QCOMPARE(last.siblingAtColumn(0).data(EngineIndexRole).toInt(), 30);
        QCOMPARE(last.siblingAtColumn(0).data(EngineStateRole).toInt(), int(EngineState::Unreachable));
        QVERIFY(last.siblingAtColumn(0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("refused")));

        filter.setEngine(30);
        QCOMPARE(filter.rowCount(), 2);
        filter.setEngine(-1);
        filter.setNode(5); // d1: engines 24..39
        QCOMPARE(filter.rowCount(), 17);
        filter.setKindEnabled(StateEvent::Kind::State, false);
        QCOMPARE(filter.rowCount(), 0);
        tracker.recordAction(-1, 5, QStringLiteral("checked NPUs"));
        QCOMPARE(filter.rowCount(), 1);
        filter.setKindEnabled(StateEvent::Kind::State, true);
        filter.setNode(-1);
        filter.setText(QStringLiteral("UNREACHABLE"));
        QCOMPARE(filter.rowCount(), 1);
        QVERIFY(loadDemo(&store));
        QCOMPARE(events.rowCount(), 0);
        QCOMPARE(filter.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestStateModels)
#include "tst_statemodels.moc"
