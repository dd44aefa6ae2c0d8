// SPDX-License-Identifier: MIT
#pragma once

#include "audit/auditlog.h"
#include "cluster/profile.h"
#include "net/membershipjournal.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/enginecontroller.h"
#include "ops/operationjournal.h"
#include "ops/scalecontext.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scaleprobe.h"

#include <QTextStream>

#include <functional>
#include <memory>
#include <optional>

// What the verbs that read or change the proxy's membership share: the profile, the proxy client with
// its generation, the membership table with its journal, the operations journal and what an earlier
// run left interrupted in it, and (for the verbs that act) the scale context the operations run with.
namespace pd {
class RunnerFactory;
class ScaleOperation;
class ScaleRunner;
} // namespace pd

namespace pdctl {

class VerbParser;

struct Session {
    pd::Profile profile;
    QString profilePath;
    QList<pd::EngineRef> refs;
    std::unique_ptr<pd::ProxyClient> proxy;
    std::unique_ptr<pd::MembershipReconciler> table;
    std::unique_ptr<pd::MembershipJournal> journal; // what a console or an earlier pdctl left pending
    std::unique_ptr<pd::OperationJournal> operations;
    // Operations whose process is gone (kill -9, a crash): their possible removes and adds are marked
    // in `table` (assumeInterruptedMembership).
    QList<pd::OperationRecord> interrupted;
    std::unique_ptr<pd::EngineProbe> probe;
    std::optional<pd::ProxyCapabilities> caps;

    ~Session();
    // The interrupted operations acting on `role`.
    QList<pd::OperationRecord> interruptedOf(pd::Role role) const;
};

// Loads the profile, connects to its proxy, detects the generation, reads the membership and the
// interrupted operations. A proxy that does not answer ends it (nullptr), unless `proxyOptional`: then
// the session comes back with caps->reachable false and no membership.
std::unique_ptr<Session> connectSession(const QString &profilePath, QTextStream &err, bool proxyOptional = false);

// What a verb that acts needs beside the session: the engines' control (pdsim's control API when
// `simControl` is given, else the launcher through each node's runner), the audit log and the context.
struct ActingSession {
    std::unique_ptr<pd::EngineController> controller;
    std::unique_ptr<pd::EngineControl> control;
    std::unique_ptr<pd::AuditLog> audit;
    pd::ScaleContext ctx;
};
std::unique_ptr<ActingSession> prepareActing(
    Session &s, pd::RunnerFactory &runners, const QString &simControl, const QString &auditPath);

// The interrupted operations, a paragraph each, with what they left (probing their engines) and the
// repair commands; nothing when there is none. Returns how many were printed.
int printInterrupted(Session &s, const QList<pd::OperationRecord> &records, QTextStream &out);

// How the verbs that bring instances back treat a drain the busy proxy never finalises:
// --idle-timeout S, --drain-wait S, --allow-proxy-restart (docs/scaling.md, "Healing under traffic").
struct DrainOptions {
    std::optional<int> idleTimeoutMs;
    std::optional<int> drainWaitMs;
    bool allowProxyRestart = false;
};
// Reads them from `p`; a malformed value: false with *exitCode set to the usage error's.
bool parseDrainOptions(const VerbParser &p, QTextStream &err, DrainOptions *options, int *exitCode);
// Into `ctx`'s settings, then the listener timing of the running proxy (bounded wait).
void applyDrainOptions(pd::ScaleContext &ctx, const DrainOptions &options);

// Without --yes the operator types "yes" on a terminal: kApply when confirmed, else the exit status
// (2: stdin is no terminal, 1: declined).
constexpr int kApply = -1;
int confirmOnTerminal(const QString &verb, QTextStream &out, QTextStream &err);

// False (with the errors on `err`) when the profile has validation errors and the engines would be
// reached through the nodes' runners (its values reach shells); pdsim's control API (`viaSim`) is spared.
bool profileAllowsActing(const Session &s, bool viaSim, const QString &verb, QTextStream &err);

// Runs what `enqueue` puts on a ScaleRunner over `ctx` (at most `parallelText` at once when it is a
// number), a line whenever a step changes status, until all end or SIGINT/SIGTERM cancels them at
// their next safe point. Exit status: 0 all succeeded, 1 otherwise, 128 + N when signal N cancelled.
int runOperations(pd::ScaleContext &ctx, const QString &parallelText, const pd::AuditLog &audit, QTextStream &out,
    const std::function<QList<pd::ScaleOperation *>(pd::ScaleRunner &)> &enqueue);

} // namespace pdctl
