// SPDX-License-Identifier: MIT
#pragma once

#include "ops/operationjournal.h"

#include <QSet>
#include <QString>

// An operation cut short (its process killed between two steps) as the next console or pdctl finds it in
// the operations journal: what it may have left in the proxy (marked in the membership table, so the
// removed ranks read draining, not "active serving" with no traffic), what it left on the nodes, and the
// two repairs: Finish (the same operation again: every step is safe to repeat) or Undo (the opposite
// operation). A coupled group left half alive is restarted as one group by either. The repair is an
// ordinary ScaleOperation, run by the ScaleRunner after the operator confirmed it; once it is queued the
// journal entry is dropped (the repair is journaled itself).
namespace pd {

class MembershipReconciler;
class ScaleOperation;
struct ScaleContext;

enum class RepairAction { Finish, Undo };

// Marks in `table` what `record` may have left pending in the proxy: the engines of a remove it began
// read draining (noteInterruptedRemove), those of an add it began waiting. Returns the engines marked.
QStringList assumeInterruptedMembership(const OperationRecord &record, MembershipReconciler &table);

// What it was and where it stopped: "group-scale-in of decode DP group d1 (16 ranks) by pdctl (pid 4242
// on ws1), cut short at 22:01:09 during "Stop every rank"".
QString describeInterrupted(const OperationRecord &record);
// What it left now: ranks answering (`notAnswering`: the engines that do not; null when not probed) and
// their membership in `table`: "10 of 16 ranks answer; in the proxy: 16 draining".
QString describeLeft(
    const OperationRecord &record, const MembershipReconciler &table, const QSet<QString> *notAnswering);

// What the repair does, one line; empty when this kind has no such repair (a restart has no undo; a
// proxy restart with new lists is checked by hand), with *why saying so.
QString repairText(const OperationRecord &record, RepairAction action, QString *why = nullptr);

// The operation that finishes or undoes `record` on `context`'s engines, not started; null with *why
// when none exists or an engine is not in the profile.
ScaleOperation *makeRepair(const OperationRecord &record, RepairAction action, ScaleContext *context, QString *why);

// The record whose id starts with `prefix` (at least 4 characters, as `pdctl repair` prints them);
// nullptr when none or several match.
const OperationRecord *findRecord(const QList<OperationRecord> &records, const QString &prefix);

} // namespace pd
