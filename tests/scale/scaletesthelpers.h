// SPDX-License-Identifier: MIT
#pragma once

// What the scaling tests against a simulated cluster share: a bounded reconcile, a bounded wait for the
// runner to go idle, an operation with its steps as text for failure messages, and a bounded pdctl run.
#include "awaitreply.h"
#include "net/membershipreconciler.h"
#include "ops/scaleoperation.h"
#include "ops/scalerunner.h"
#include "pdctlrun.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <optional>

namespace pd::test {

// One reconcile round now; false when the lists could not be read within 10 s.
inline bool reconcileNow(MembershipReconciler *table)
{
    return awaitReply<bool>([table](auto done) { table->reconcileNow(done); }).value_or(false);
}

inline bool waitIdle(ScaleRunner *runner, int ms)
{
    return QTest::qWaitFor([runner] { return runner->isIdle(); }, ms);
}

inline QString describeOperation(const ScaleOperation *op)
{
    QString s = QStringLiteral("%1 %2: %3 — %4\n").arg(op->kind(), op->engine().id, operationOutcomeName(op->outcome()), op->summary());
    for (const OperationStep &step : op->steps())
        s += QStringLiteral("  [%1] %2: %3\n").arg(stepStatusName(step.status), step.label, step.detail);
    return s;
}

// The data directory (XDG_DATA_HOME) pdctl runs of this test process share: new per process, so the
// membership journal and the default audit log of an earlier run or of the user are never read.
inline QString testDataHome()
{
    static QTemporaryDir dir;
    return dir.path();
}

// Runs the built pdctl with `args` to its end (bounded): its exit code, -1 when it did not finish; stdout
// and stderr together in *out. `dataHome` empty: testDataHome().
inline int runPdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000, const QString &dataHome = {})
{
    const PdctlRun run = pd::test::runPdctl(
        args, { timeoutMs, { QStringLiteral("XDG_DATA_HOME=") + (dataHome.isEmpty() ? testDataHome() : dataHome) } });
    *out = (run.out + run.err).toUtf8();
    return run.exitCode;
}

// `pdctl status --profile PROFILE --json` read as JSON: null when pdctl failed, discarded when unreadable.
inline nlohmann::json pdctlStatus(const QString &profile)
{
    QByteArray out;
    if (runPdctl({ QStringLiteral("status"), QStringLiteral("--profile"), profile, QStringLiteral("--json") }, &out)
        != 0)
        return nlohmann::json();
    return nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
}

} // namespace pd::test
