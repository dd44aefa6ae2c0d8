// SPDX-License-Identifier: MIT
// The topology layout: every engine has a cell, nothing overlaps, hit tests round-trip, rubber bands
// and keyboard navigation find the right engines, at 8 to 5,000 engines in both shapes.
#include "cluster/profileformat.h"
#include "topology/syntheticprofile.h"
#include "topology/topologylayout.h"

#include <QTest>

#include <set>

using namespace pd;

Q_DECLARE_METATYPE(pd::TopologyMode)

namespace {

Profile bundledProfile()
{
    const ProfileLoadResult result
        = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json"));
    return result.profile.value_or(Profile());
}

bool strictlyInside(const QRectF &inner, const QRectF &outer)
{
    return outer.contains(inner);
}

} // namespace

class TestTopologyLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void invariants_data()
    {
        QTest::addColumn<int>("engines");
        QTest::addColumn<int>("perNode");
        QTest::addColumn<TopologyMode>("mode");
        QTest::addColumn<TopologyMode>("expected");
        for (int engines : { 8, 64, 1024, 5000 }) {
            for (int perNode : { 4, 16 }) {
                const QByteArray tag = QByteArray::number(engines) + " x" + QByteArray::number(perNode);
                QTest::addRow("%s auto", tag.constData())
                    << engines << perNode << TopologyMode::Auto
                    << (engines >= 512 ? TopologyMode::Heatmap : TopologyMode::Boxes);
                QTest::addRow("%s boxes", tag.constData())
                    << engines << perNode << TopologyMode::Boxes << TopologyMode::Boxes;
                QTest::addRow("%s heatmap", tag.constData())
                    << engines << perNode << TopologyMode::Heatmap << TopologyMode::Heatmap;
            }
        }
        QTest::newRow("uneven last node") << 37 << 16 << TopologyMode::Boxes << TopologyMode::Boxes;
        QTest::newRow("uneven heatmap") << 601 << 16 << TopologyMode::Auto << TopologyMode::Heatmap;
    }

    void invariants()
    {
        QFETCH(int, engines);
        QFETCH(int, perNode);
        QFETCH(TopologyMode, mode);
        QFETCH(TopologyMode, expected);
        const Profile profile = syntheticProfile(engines, perNode);
        QCOMPARE(profile.engines().size(), engines);
        const TopologyLayout layout = TopologyLayout::build(profile, { mode, 512 });
        QCOMPARE(layout.mode(), expected);
        checkInvariants(profile, layout);
    }

    void theBundledEightNodeCluster_data()
    {
        QTest::addColumn<TopologyMode>("mode");
        QTest::newRow("boxes") << TopologyMode::Boxes;
        QTest::newRow("heatmap") << TopologyMode::Heatmap;
    }

    void theBundledEightNodeCluster()
    {
        QFETCH(TopologyMode, mode);
        const Profile profile = bundledProfile();
        QCOMPARE(profile.engines().size(), 72);
        const TopologyLayout layout = TopologyLayout::build(profile, { mode, 512 });
        checkInvariants(profile, layout);
        // The proxy above both pools; prefill left of decode; the KV arrow points from prefill to decode.
        const QRectF prefill = layout.pools().at(0).rect;
        const QRectF decode = layout.pools().at(1).rect;
        QCOMPARE(layout.pools().at(0).role, Role::Prefill);
        QVERIFY(layout.proxyRect().bottom() < prefill.top());
        QVERIFY(layout.proxyRect().bottom() < decode.top());
        QVERIFY(prefill.right() < decode.left());
        int kvArrows = 0;
        for (const TopologyArrow &arrow : layout.arrows()) {
            if (arrow.kind != ArrowKind::KvTransfer)
                continue;
            ++kvArrows;
            QCOMPARE(arrow.line.p1().x(), prefill.right());
            QCOMPARE(arrow.line.p2().x(), decode.left());
        }
        QCOMPARE(kvArrows, 1);
    }

    void boxesNavigateAlongRowsAndDownNodes()
    {
        const Profile profile = bundledProfile();
        const TopologyLayout layout = TopologyLayout::build(profile, { TopologyMode::Boxes, 512 });
        const QList<Engine> engines = profile.engines();
        // d0 holds 16 engines in rows of 8: the first decode engine is engine 8.
        const int d0first = 8;
        QCOMPARE(profile.nodes.at(engines.at(d0first).nodeIndex).name, QStringLiteral("d0"));
        QCOMPARE(layout.neighbour(d0first, NavigationDirection::Right), d0first + 1);
        QCOMPARE(layout.neighbour(d0first + 1, NavigationDirection::Left), d0first);
        QCOMPARE(layout.neighbour(d0first, NavigationDirection::Down), d0first + 8);
        QCOMPARE(layout.neighbour(d0first + 8, NavigationDirection::Up), d0first);
        // From the last row of d0 down into d1's first row (the next node box below it).
        const int below = layout.neighbour(d0first + 8, NavigationDirection::Down);
        QCOMPARE(profile.nodes.at(engines.at(below).nodeIndex).name, QStringLiteral("d1"));
        QCOMPARE(engines.at(below).localRank, 0);
        // From the prefill pool right across into the decode pool.
        const int right = layout.neighbour(1, NavigationDirection::Right);
        QCOMPARE(engines.at(right).role, Role::Decode);
        // The proxy is above everything: nothing further up from the first engine.
        QCOMPARE(layout.neighbour(0, NavigationDirection::Up), -1);
        QCOMPARE(layout.neighbour(-1, NavigationDirection::Up), -1);
    }

    void heatmapRowsAreNodesColumnsAreRanks()
    {
        const Profile profile = syntheticProfile(1024, 16);
        const TopologyLayout layout = TopologyLayout::build(profile);
        QCOMPARE(layout.mode(), TopologyMode::Heatmap);
        const QList<Engine> engines = profile.engines();
        for (const NodeBox &box : layout.nodes()) {
            for (int i = 1; i < box.cellCount; ++i) {
                const QRectF a = layout.cells().at(std::size_t(box.firstCell + i - 1)).rect;
                const QRectF b = layout.cells().at(std::size_t(box.firstCell + i)).rect;
                QCOMPARE(a.top(), b.top());
                QVERIFY(a.right() < b.left());
                QCOMPARE(engines.at(box.firstCell + i).dpRank, engines.at(box.firstCell + i - 1).dpRank + 1);
            }
        }
        // Down from a node row goes to the same rank slot of the next node.
        const PoolGroup &decodePool = layout.pools().at(1);
        const NodeBox &first = layout.nodes().at(std::size_t(decodePool.nodes.at(0)));
        const int down = layout.neighbour(first.firstCell + 3, NavigationDirection::Down);
        QCOMPARE(layout.cellOfEngine(down).slot, 3);
        QCOMPARE(layout.cellOfEngine(down).node, decodePool.nodes.at(1));
        QCOMPARE(layout.neighbour(first.firstCell + 3, NavigationDirection::Right), first.firstCell + 4);
        // Readable: a pool is wrapped into bands instead of one very tall column.
        const QRectF decode = layout.pools().at(1).rect;
        QVERIFY2(decode.height() < 3 * decode.width(),
            qPrintable(QStringLiteral("%1 x %2").arg(decode.width()).arg(decode.height())));
        // Every band has a header for its rank columns.
        QVERIFY(!layout.pools().at(1).headerRects.isEmpty());
    }

    void rubberBandSelectsWhatItTouches()
    {
        const Profile profile = syntheticProfile(64, 16);
        const TopologyLayout layout = TopologyLayout::build(profile, { TopologyMode::Boxes, 512 });
        // A band from the centre of engine a to the centre of engine b selects the cells in between.
        // 13 prefill engines on p0, then d0's 16 (engines 13-28) in rows of 8.
        const int a = 15; // d0 slot 2: row 0, column 2
        const int b = 24; // d0 slot 11: row 1, column 3
        QCOMPARE(layout.cellOfEngine(a).node, layout.cellOfEngine(b).node);
        const QRectF band(layout.engineRect(a).center(), layout.engineRect(b).center());
        const std::vector<int> hit = layout.enginesIn(band);
        QCOMPARE(hit, (std::vector<int> { 15, 16, 23, 24 }));
        // An area between the pools touches nothing.
        const TopologyArrow kv = layout.arrows().back();
        QCOMPARE(kv.kind, ArrowKind::KvTransfer);
        QVERIFY(layout.enginesIn(QRectF(kv.line.p1() + QPointF(4, -2), kv.line.p2() - QPointF(4, -2))).empty());
        // The whole canvas: every engine once.
        QCOMPARE(int(layout.enginesIn(layout.bounds()).size()), 64);
        QCOMPARE(int(layout.nodesIn(layout.bounds()).size()), int(profile.nodes.size()));
    }

    void anEmptyPoolStillHasItsPlace()
    {
        Profile profile = syntheticProfile(32, 16);
        profile.nodes.removeIf([](const Node &node) { return node.role == Role::Prefill; });
        const TopologyLayout layout = TopologyLayout::build(profile);
        QCOMPARE(layout.pools().size(), std::size_t(2));
        QVERIFY(layout.pools().at(0).nodes.isEmpty());
        QVERIFY(!layout.pools().at(0).rect.isEmpty());
        QVERIFY(!layout.pools().at(0).rect.intersects(layout.pools().at(1).rect));
        QCOMPARE(layout.engineCount(), int(profile.engines().size()));
        checkInvariants(profile, layout);
    }

private:
    void checkInvariants(const Profile &profile, const TopologyLayout &layout)
    {
        const QList<Engine> engines = profile.engines();
        QCOMPARE(layout.engineCount(), int(engines.size()));
        QCOMPARE(int(layout.nodes().size()), int(profile.nodes.size()));
        QVERIFY(!layout.proxyRect().isEmpty());
        QVERIFY(strictlyInside(layout.proxyRect(), layout.bounds()));
        QVERIFY(!layout.proxyRect().intersects(layout.pools().at(0).rect));
        QVERIFY(!layout.proxyRect().intersects(layout.pools().at(1).rect));
        QVERIFY(!layout.pools().at(0).rect.intersects(layout.pools().at(1).rect));
        for (const PoolGroup &pool : layout.pools())
            QVERIFY(strictlyInside(pool.rect, layout.bounds()));

        // Nodes: inside their pool, no two overlap, the node under a box's centre is that node.
        for (const NodeBox &box : layout.nodes()) {
            const PoolGroup &pool = layout.pools().at(box.role == Role::Prefill ? 0 : 1);
            QVERIFY(pool.nodes.contains(box.node));
            QVERIFY(strictlyInside(box.rect, pool.rect));
            QVERIFY(strictlyInside(box.titleRect, box.rect));
            QVERIFY(strictlyInside(box.badgeRect, box.rect));
            const std::vector<int> touching = layout.nodesIn(box.rect.adjusted(0.5, 0.5, -0.5, -0.5));
            QCOMPARE(touching, std::vector<int> { box.node });
            QCOMPARE(layout.nodeAt(box.titleRect.center()), box.node);
            // The title is not an engine: clicking it selects nothing.
            QCOMPARE(layout.engineAt(box.titleRect.topLeft() + QPointF(1, 1)), -1);
        }

        // Engines: one cell each, inside its node, no overlaps, hit tests round-trip.
        std::set<int> seen;
        for (int e = 0; e < engines.size(); ++e) {
            const EngineCell &cell = layout.cellOfEngine(e);
            QCOMPARE(cell.engine, e);
            QCOMPARE(cell.node, engines.at(e).nodeIndex);
            QVERIFY(seen.insert(e).second);
            QVERIFY(!cell.rect.isEmpty());
            const NodeBox &box = layout.nodes().at(std::size_t(cell.node));
            QVERIFY2(strictlyInside(cell.rect, box.rect), qPrintable(QStringLiteral("engine %1").arg(e)));
            QVERIFY(!cell.rect.intersects(box.titleRect));
            QCOMPARE(cell.slot, e - box.firstCell);
            QCOMPARE(layout.engineAt(cell.rect.center()), e);
            QCOMPARE(layout.engineAt(cell.rect.topLeft() + QPointF(0.25, 0.25)), e);
            QCOMPARE(layout.nodeAt(cell.rect.center()), cell.node);
            const std::vector<int> overlapping = layout.enginesIn(cell.rect.adjusted(0.25, 0.25, -0.25, -0.25));
            QCOMPARE(overlapping, std::vector<int> { e });
        }
        QCOMPARE(int(seen.size()), int(engines.size()));
        QCOMPARE(layout.engineAt(layout.bounds().topLeft() - QPointF(10, 10)), -1);
        QCOMPARE(layout.engineAt(layout.proxyRect().center()), -1);
    }
};

QTEST_GUILESS_MAIN(TestTopologyLayout)
#include "tst_topologylayout.moc"
