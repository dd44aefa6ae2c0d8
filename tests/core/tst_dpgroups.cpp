// SPDX-License-Identifier: MIT
// The DP groups of a profile: the 8-node guide's layout (each prefill node its own group of 2, the four decode
// nodes one coupled group of 64), the sizes a pool can take by whole groups, dp_coupling in the format and
// the validator.
#include "cluster/dpgroups.h"
#include "cluster/profileformat.h"
#include "cluster/profilevalidator.h"

#include <QtTest>

using namespace pd;

namespace {

QString profilePath(const char *relative)
{
    return QStringLiteral(PD_SOURCE_DIR "/") + QLatin1String(relative);
}

Profile load(const char *relative)
{
    const ProfileLoadResult loaded = loadProfileFile(profilePath(relative));
    if (!loaded.profile)
        qFatal("cannot load %s", relative);
    return *loaded.profile;
}

} // namespace

class TstDpGroups : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seed000Layout();
    void reachableSizesByWholeGroups();
    void independentRolesScaleByRank();
    void couplingRoundTripsAndDefaultsToCoupled();
    void independentWithExpertParallelIsAnError();
    void demoGroupsLayout();
};

// What `pdconsole --demo` runs: the 8-node guide's prefill pool, decode as four coupled groups of 16 with d3's
// group left out of the proxy (one warning for the group, not sixteen).
void TstDpGroups::demoGroupsLayout()
{
    const Profile profile = load("resources/profiles/demo-groups.json");
    const DpGroups groups(profile);
    const QList<const DpGroup *> decode = groups.ofRole(Role::Decode);
    QCOMPARE(decode.size(), 4);
    for (const DpGroup *g : decode) {
        QCOMPARE(g->size(), 16);
        QVERIFY(g->coupled);
        QCOMPARE(g->nodeNames.size(), 1);
    }
    QCOMPARE(groups.reachableSizes(Role::Decode), (QList<int>{0, 16, 32, 48, 64}));
    QCOMPARE(groups.nearestReachable(Role::Decode, 60), std::make_pair(48, 64));
    const QList<ValidationIssue> issues = validateProfile(profile);
    QVERIFY(!hasErrors(issues));
    int proxyWarnings = 0;
    for (const ValidationIssue &issue : issues) {
        if (issue.pointer != QLatin1String("/proxy/decode_instances"))
            continue;
        ++proxyWarnings;
        QVERIFY2(issue.message.contains(QLatin1String("DP group decode@127.0.0.9:13395 (16 ranks on d3)")), qPrintable(issue.message));
    }
    QCOMPARE(proxyWarnings, 1);
    QCOMPARE(profile.proxyInstances(Role::Decode).size(), 48);
}

void TstDpGroups::seed000Layout()
{
    const Profile profile = load("resources/profiles/deepseek-r1-8node.json");
    const DpGroups groups(profile);
    QCOMPARE(groups.groups().size(), 5);
    QCOMPARE(groups.ofRole(Role::Prefill).size(), 4);
    const QList<const DpGroup *> decode = groups.ofRole(Role::Decode);
    QCOMPARE(decode.size(), 1);
    const DpGroup &d = *decode.first();
    QCOMPARE(d.id, QStringLiteral("decode@192.0.0.5:13395"));
    QCOMPARE(d.dpSize, 64);
    QCOMPARE(d.size(), 64);
    QVERIFY(d.coupled);
    QCOMPARE(d.nodeNames.size(), 4);
    for (int i = 0; i < d.size(); ++i)
        QCOMPARE(d.dpRanks.at(i), i);
    const QList<Engine> engines = profile.engines();
    QCOMPARE(engines.at(d.engines.first()).dpRank, 0);
    QCOMPARE(groups.groupOfEngine(d.engineIds.last()), &d);
    QVERIFY(groups.isCoupledRank(d.engineIds.at(17)));
    QCOMPARE(groups.indexOfEngine(QStringLiteral("10.9.9.9:1")), -1);
    for (const DpGroup *p : groups.ofRole(Role::Prefill)) {
        QCOMPARE(p->size(), 2);
        QVERIFY(p->coupled);
        QCOMPARE(p->nodeNames.size(), 1);
    }
}

void TstDpGroups::reachableSizesByWholeGroups()
{
    const DpGroups groups(load("resources/profiles/deepseek-r1-8node.json"));
    QCOMPARE(groups.reachableSizes(Role::Decode), (QList<int>{0, 64}));
    QCOMPARE(groups.reachableSizes(Role::Prefill), (QList<int>{0, 2, 4, 6, 8}));
    QCOMPARE(groups.nearestReachable(Role::Decode, 60), std::make_pair(0, 64));
    QCOMPARE(groups.nearestReachable(Role::Decode, 64), std::make_pair(64, 64));
    QCOMPARE(groups.nearestReachable(Role::Decode, 70), std::make_pair(64, -1));
    QCOMPARE(groups.nearestReachable(Role::Prefill, 5), std::make_pair(4, 6));
}

void TstDpGroups::independentRolesScaleByRank()
{
    Profile profile = load("resources/profiles/deepseek-r1-8node.json");
    profile.decode.dpCoupling = DpCoupling::Independent;
    const DpGroups groups(profile);
    QVERIFY(!groups.ofRole(Role::Decode).first()->coupled);
    QVERIFY(!groups.isCoupledRank(groups.ofRole(Role::Decode).first()->engineIds.first()));
    const QList<int> sizes = groups.reachableSizes(Role::Decode);
    QCOMPARE(sizes.size(), 65);
    QCOMPARE(sizes.at(60), 60);
}

void TstDpGroups::couplingRoundTripsAndDefaultsToCoupled()
{
    Profile profile = load("resources/profiles/deepseek-r1-8node.json");
    QCOMPARE(profile.decode.dpCoupling, DpCoupling::Coupled);
    profile.decode.dpCoupling = DpCoupling::Independent;
    const QByteArray bytes = serializeProfile(profile);
    QVERIFY(bytes.contains("\"dp_coupling\": \"independent\""));
    const ProfileLoadResult again = parseProfile(bytes);
    QVERIFY(again.profile.has_value());
    QCOMPARE(again.profile->decode.dpCoupling, DpCoupling::Independent);

    QByteArray bad = bytes;
    bad.replace("\"dp_coupling\": \"independent\"", "\"dp_coupling\": \"loose\"");
    const ProfileLoadResult refused = parseProfile(bad);
    QVERIFY(!refused.profile.has_value());
    QVERIFY(refused.errors.first().message.contains(QLatin1String("independent")));
}

void TstDpGroups::independentWithExpertParallelIsAnError()
{
    Profile profile = load("resources/profiles/deepseek-r1-8node.json");
    QVERIFY(profile.decode.enablesExpertParallel());
    profile.decode.dpCoupling = DpCoupling::Independent;
    const QList<ValidationIssue> issues = validateProfile(profile);
    bool found = false;
    for (const ValidationIssue &issue : issues) {
        if (issue.pointer == QLatin1String("/roles/decode/dp_coupling")) {
            found = true;
            QVERIFY(issue.message.contains(QLatin1String("expert parallelism")));
        }
    }
    QVERIFY(found);
    profile.decode.extraArgs.removeAll(QStringLiteral("--enable-expert-parallel"));
    for (const ValidationIssue &issue : validateProfile(profile))
        QVERIFY(issue.pointer != QLatin1String("/roles/decode/dp_coupling"));
}

QTEST_GUILESS_MAIN(TstDpGroups)
#include "tst_dpgroups.moc"
