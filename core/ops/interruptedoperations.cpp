// SPDX-License-Identifier: MIT
#include "ops/interruptedoperations.h"

#include "net/membershipreconciler.h"
#include "ops/dpgroupoperation.h"
#include "ops/scalecontext.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"

#include <QMap>

namespace pd {

namespace {

bool isGroupKind(const QString &kind)
{
    return kind.startsWith(QLatin1String("group-"));
}

bool removesFromProxy(const OperationRecord &r)
{
    return r.hasReached(QStringLiteral("remove"));
}

bool addsToProxy(const OperationRecord &r)
{
    return r.hasReached(QStringLiteral("add"));
}

QString unitText(const OperationRecord &r)
{
    if (isGroupKind(r.kind))
        return QStringLiteral("%1 DP group %2 (%3 ranks)").arg(roleName(r.role), r.unit).arg(r.engines.size());
    return QStringLiteral("%1 %2").arg(roleName(r.role), r.unit);
}

// The profile's engines of the record, in its order; empty with *why when one is not in the profile.
QList<EngineRef> refsOf(const OperationRecord &r, const ScaleContext &ctx, QString *why)
{
    QList<EngineRef> refs;
    for (const QString &id : r.engines) {
        const auto it = std::find_if(ctx.engines.cbegin(), ctx.engines.cend(),
            [&](const EngineRef &e) { return e.id == id && e.role == r.role; });
        if (it == ctx.engines.cend()) {
            if (why)
                *why = QStringLiteral("%1 %2 is not in the profile: repair it by hand").arg(roleName(r.role), id);
            return {};
        }
        refs.append(*it);
    }
    return refs;
}

} // namespace

QStringList assumeInterruptedMembership(const OperationRecord &record, MembershipReconciler &table)
{
    QStringList marked;
    const QString by = record.owner.describe();
    // A group restart removes, then adds: only its last step that touched the proxy counts.
    const bool added = addsToProxy(record);
    const bool removed = removesFromProxy(record) && !added;
    for (const QString &id : record.engines) {
        if (removed && table.noteInterruptedRemove(id, record.role, record.updated, by))
            marked << id;
        if (added && table.noteInterruptedAdd(id, record.role, record.updated, by))
            marked << id;
    }
    return marked;
}

QString describeInterrupted(const OperationRecord &record)
{
    const QString when = record.updated.isValid()
        ? record.updated.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
        : QStringLiteral("an unknown time");
    return QStringLiteral("%1 of %2 by %3, cut short at %4 during \"%5\" (%6)")
        .arg(record.kind, unitText(record), record.owner.describe(), when,
            record.stepLabel.isEmpty() ? QStringLiteral("its start") : record.stepLabel,
            record.stepStatus.isEmpty() ? QStringLiteral("not begun") : record.stepStatus);
}

QString describeLeft(
    const OperationRecord &record, const MembershipReconciler &table, const QSet<QString> *notAnswering)
{
    QStringList parts;
    const int n = int(record.engines.size());
    if (notAnswering) {
        int answering = 0;
        for (const QString &id : record.engines)
            answering += !notAnswering->contains(id);
        parts << (n == 1
                ? (answering ? QStringLiteral("the engine answers") : QStringLiteral("the engine does not answer"))
                : QStringLiteral("%1 of %2 ranks answer").arg(answering).arg(n));
        if (isGroupKind(record.kind) && answering > 0 && answering < n)
            parts << QStringLiteral("the group is BROKEN (its survivors hang)");
    }
    QMap<QString, int> facts;
    for (const QString &id : record.engines)
        ++facts[membershipFactName(table.fact(id, record.role))];
    QStringList proxy;
    for (auto it = facts.cbegin(); it != facts.cend(); ++it)
        proxy << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    parts << QStringLiteral("in the proxy: %1").arg(proxy.join(QStringLiteral(", ")));
    return parts.join(QStringLiteral("; "));
}

QString repairText(const OperationRecord &record, RepairAction action, QString *why)
{
    const QString &k = record.kind;
    const bool finish = action == RepairAction::Finish;
    auto none = [why](const QString &reason) {
        if (why)
            *why = reason;
        return QString();
    };
    if (k == QLatin1String("scale-in-restart") || k == QLatin1String("scale-out-restart"))
        return none(QStringLiteral(
            "it restarts the proxy with new lists: the proxy may be down or run with either list. Check it "
            "(pdctl proxy status), start it if it is down (pdctl proxy start), then scale to the size wanted"));
    if (k == QLatin1String("group-restart"))
        return finish ? QStringLiteral("restart the group again: take its ranks out of the proxy, stop them all, start "
                                       "them together and add them back")
                      : none(QStringLiteral("a restart has nothing to undo: finish it"));
    if (k == QLatin1String("group-scale-in"))
        return finish ? QStringLiteral("take the group out of the proxy and stop every rank still running")
                      : QStringLiteral("bring the group back: start it as one group (restarted whole if it is broken) "
                                       "and add it to the proxy");
    if (k == QLatin1String("group-scale-out") || k == QLatin1String("group-start"))
        return finish
            ? QStringLiteral("start the group as one group (restarted whole if it is broken)%1")
                  .arg(k == QLatin1String("group-start") ? QString() : QStringLiteral(" and add it to the proxy"))
            : QStringLiteral("take the group out of the proxy and stop every rank");
    if (k == QLatin1String("scale-in") || k == QLatin1String("stop"))
        return finish ? (record.stopsEngines ? QStringLiteral("take the engine out of the proxy and stop it")
                                             : QStringLiteral("take the engine out of the proxy (it keeps running)"))
                      : QStringLiteral("start the engine if it is stopped and add it to the proxy");
    if (k == QLatin1String("scale-out") || k == QLatin1String("start"))
        return finish ? (k == QLatin1String("start")
                       ? QStringLiteral("start the engine and wait until it serves")
                       : QStringLiteral("start the engine if it is stopped and add it to the proxy"))
                      : QStringLiteral("take the engine out of the proxy and stop it");
    return none(QStringLiteral("this build does not know how to repair a \"%1\"").arg(k));
}

ScaleOperation *makeRepair(const OperationRecord &record, RepairAction action, ScaleContext *context, QString *why)
{
    if (repairText(record, action, why).isEmpty())
        return nullptr;
    const QList<EngineRef> refs = refsOf(record, *context, why);
    if (refs.isEmpty()) {
        if (why && why->isEmpty())
            *why = QStringLiteral("the operation names no engine");
        return nullptr;
    }
    const QString &k = record.kind;
    const bool finish = action == RepairAction::Finish;
    using Mode = DpGroupOperation::Mode;
    ScaleOperation *op = nullptr;
    if (isGroupKind(k)) {
        const bool wasOut = k == QLatin1String("group-scale-out") || k == QLatin1String("group-start");
        const bool bringsBack = k == QLatin1String("group-restart") ? true : (wasOut == finish);
        if (k == QLatin1String("group-restart")) {
            op = new DpGroupOperation(Mode::Restart, record.unit, refs, context);
        } else if (bringsBack) {
            auto *group = new DpGroupOperation(Mode::ScaleOut, record.unit, refs, context);
            group->setRestartIfBroken(true);
            if (k == QLatin1String("group-start"))
                group->setAddToProxy(false);
            op = group;
        } else {
            op = new DpGroupOperation(Mode::ScaleIn, record.unit, refs, context);
        }
    } else {
        const bool wasOut = k == QLatin1String("scale-out") || k == QLatin1String("start");
        if (wasOut == finish) {
            auto *out = new ScaleOut(refs.first(), context);
            if (k == QLatin1String("start"))
                out->setAddToProxy(false);
            op = out;
        } else {
            auto *in = new ScaleIn(refs.first(), context);
            if (k == QLatin1String("stop") || (k == QLatin1String("start") && !finish))
                in->setImmediate(true);
            if (k == QLatin1String("scale-in") && !record.stopsEngines)
                in->setStopEngine(false);
            op = in;
        }
    }
    op->setIntentDetail(
        QStringLiteral("%1 of an interrupted %2").arg(finish ? QStringLiteral("finish") : QStringLiteral("undo"), k));
    return op;
}

const OperationRecord *findRecord(const QList<OperationRecord> &records, const QString &prefix)
{
    if (prefix.size() < 4)
        return nullptr;
    const OperationRecord *found = nullptr;
    for (const OperationRecord &r : records)
        if (r.id.startsWith(prefix, Qt::CaseInsensitive)) {
            if (found)
                return nullptr;
            found = &r;
        }
    return found;
}

} // namespace pd
