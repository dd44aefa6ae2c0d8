// SPDX-License-Identifier: MIT
#include "repaircommand.h"
#include "eventwait.h"
#include "proxysession.h"
#include "verbparser.h"

#include "ops/interruptedoperations.h"
#include "ops/scaleoperation.h"
#include "ops/scalerunner.h"

namespace pdctl {

using namespace pd;

namespace {

const char *const kUsage
    = "usage: pdctl repair --profile FILE [--finish ID | --undo ID | --forget ID] [--yes]\n"
      "                    [--sim-control HOST:PORT] [--audit FILE] [--allow-proxy-restart] [--drain-wait S]\n"
      "                    [--idle-timeout S]\n"
      "  Operations cut short (their console or pdctl was killed) and what they left. --finish runs the\n"
      "  operation again (every step is safe to repeat), --undo runs its opposite; a coupled DP group left\n"
      "  half alive is restarted as one group by either. --forget drops the record without acting.\n"
      "  Without an action: exit 0 when nothing was cut short, 1 otherwise.";

} // namespace

int runRepairCommand(const QStringList &args, RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("repair"), QString::fromLatin1(kUsage));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE"));
    for (const char *name : { "finish", "undo", "forget", "sim-control", "audit", "drain-wait", "idle-timeout" })
        p.option(QString::fromLatin1(name), QStringLiteral("VALUE"));
    for (const char *name : { "yes", "allow-proxy-restart" })
        p.flag(QString::fromLatin1(name));
    if (!p.parse(args, err))
        return kUsageExit;
    int given = 0;
    QString id;
    std::optional<RepairAction> action;
    for (const char *name : { "finish", "undo", "forget" })
        if (const QString v = p.value(QString::fromLatin1(name)); !v.isEmpty()) {
            ++given;
            id = v;
            if (QLatin1String(name) == QLatin1String("finish"))
                action = RepairAction::Finish;
            else if (QLatin1String(name) == QLatin1String("undo"))
                action = RepairAction::Undo;
        }
    if (given > 1)
        return p.usageError(err, QStringLiteral("one of --finish, --undo and --forget at a time"));
    DrainOptions drain;
    if (int exitCode = 0; !parseDrainOptions(p, err, &drain, &exitCode))
        return exitCode;

    const QString profile = p.value(QStringLiteral("profile"));
    // Listing and forgetting need no proxy; a repair does.
    auto s = connectSession(profile, err, given == 0 || !action);
    if (!s)
        return 1;
    if (given == 0) {
        if (s->interrupted.isEmpty()) {
            out << "No operation was cut short (" << s->operations->path() << ").\n";
            return 0;
        }
        printInterrupted(*s, s->interrupted, out);
        return 1;
    }
    const OperationRecord *found = findRecord(s->interrupted, id);
    if (!found) {
        err << "pdctl repair: no operation cut short has an id starting \"" << id
            << "\" (one only, at least 4 characters; `pdctl repair --profile " << profile << "` lists them)\n";
        return 1;
    }
    const OperationRecord record = *found;
    if (!action) {
        if (!s->operations->drop(record.id)) {
            err << "pdctl repair: " << s->operations->lastError() << '\n';
            return 1;
        }
        out << "Forgotten: " << describeInterrupted(record) << '\n';
        return 0;
    }
    const QString simControl = p.value(QStringLiteral("sim-control"));
    if (!profileAllowsActing(*s, !simControl.isEmpty(), QStringLiteral("repair"), err))
        return 1;
    const std::unique_ptr<ActingSession> acting
        = prepareActing(*s, runners, simControl, p.value(QStringLiteral("audit")));
    ScaleContext &ctx = acting->ctx;
    applyDrainOptions(ctx, drain);

    printInterrupted(*s, { record }, out);
    QString why;
    ScaleOperation *op = makeRepair(record, *action, &ctx, &why);
    if (!op) {
        err << "pdctl repair: cannot " << (*action == RepairAction::Finish ? "finish" : "undo") << " it: " << why
            << '\n';
        return 1;
    }
    out << (*action == RepairAction::Finish ? "Finish: " : "Undo: ") << repairText(record, *action) << '\n';
    if (!p.isSet(QStringLiteral("yes"))) {
        if (const int exitCode = confirmOnTerminal(QStringLiteral("repair"), out, err); exitCode != kApply) {
            delete op;
            return exitCode;
        }
    }
    // The repair is journaled itself from its start; the record it replaces goes first, so that a
    // repair cut short in turn leaves one record, its own.
    if (!s->operations->drop(record.id)) {
        delete op;
        err << "pdctl repair: " << s->operations->lastError() << '\n';
        return 1;
    }
    s->table->start(2000);
    return runOperations(ctx, QString(), *acting->audit, out,
        [op](ScaleRunner &runner) { return QList<ScaleOperation *> { runner.enqueue(op) }; });
}

} // namespace pdctl
