// SPDX-License-Identifier: MIT
#include "warmupcommand.h"

#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "net/profileproxyendpoint.h"
#include "ops/warmupreport.h"
#include "ops/warmuprun.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QSaveFile>

#include <optional>

namespace pdctl {

namespace {

constexpr const char *kUsage
    = "usage: pdctl warmup --profile FILE [-n N] [--concurrency C] [--prompt-tokens P] [--max-tokens T]\n"
      "                    [--no-stream] [--model NAME] [--timeout SECONDS] [--audit FILE]\n"
      "                    [--csv FILE] [--json]\n";

// Reads the integer after `name`; false (with a message) when the value is missing or not a number.
bool intOption(const QStringList &args, const QString &name, int *value, QTextStream &err)
{
    const qsizetype i = args.indexOf(name);
    if (i < 0)
        return true;
    bool ok = false;
    const int v = args.value(i + 1).toInt(&ok);
    if (!ok) {
        err << "pdctl warmup: " << name << " needs a whole number, got \"" << args.value(i + 1) << "\"\n";
        return false;
    }
    *value = v;
    return true;
}

QString option(const QStringList &args, const QString &name)
{
    const qsizetype i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : QString();
}

} // namespace

int runWarmUpCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QString profilePath = option(args, QStringLiteral("--profile"));
    if (profilePath.isEmpty()) {
        err << kUsage;
        return 2;
    }
    pd::WarmUpOptions o;
    int timeoutSeconds = o.requestTimeoutMs / 1000;
    if (!intOption(args, QStringLiteral("-n"), &o.count, err)
        || !intOption(args, QStringLiteral("--concurrency"), &o.concurrency, err)
        || !intOption(args, QStringLiteral("--prompt-tokens"), &o.promptTokens, err)
        || !intOption(args, QStringLiteral("--max-tokens"), &o.maxTokens, err)
        || !intOption(args, QStringLiteral("--timeout"), &timeoutSeconds, err)) {
        err << kUsage;
        return 2;
    }
    o.requestTimeoutMs = timeoutSeconds * 1000;
    o.stream = !args.contains(QStringLiteral("--no-stream"));
    o.model = option(args, QStringLiteral("--model"));
    if (const QString invalid = o.validate(); !invalid.isEmpty()) {
        err << "pdctl warmup: " << invalid << '\n';
        return 2;
    }

    const pd::ProfileLoadResult loaded = pd::loadProfileFile(profilePath);
    if (!loaded.profile) {
        for (const pd::ProfileError &e : loaded.errors)
            err << profilePath << ": " << e.message << '\n';
        if (loaded.errors.isEmpty())
            err << profilePath << ": cannot load the profile\n";
        return 1;
    }
    o.fallbackModel = loaded.profile->decode.servedModelName;
    const QString auditPath = option(args, QStringLiteral("--audit"));
    pd::AuditLog audit(auditPath.isEmpty() ? pd::AuditLog::defaultPath() : auditPath);
    pd::WarmUpRun run(pd::profileProxyEndpoint(*loaded.profile), o, &audit);
    const bool asJson = args.contains(QStringLiteral("--json"));
    if (!asJson) {
        QObject::connect(&run, &pd::WarmUpRun::progress, &run, [&err](int done, int total) {
            if (done == total || done % std::max(1, total / 10) == 0)
                err << "warm-up: " << done << '/' << total << '\n' << Qt::flush;
        });
    }
    std::optional<pd::WarmUpResult> result;
    QEventLoop loop; // pdctl's one loop: the command is the whole process
    QObject::connect(&run, &pd::WarmUpRun::finished, &loop, [&result, &loop](const pd::WarmUpResult &r) {
        result = r;
        loop.quit();
    });
    run.start();
    loop.exec();

    if (const QString csvPath = option(args, QStringLiteral("--csv")); !csvPath.isEmpty()) {
        QSaveFile file(csvPath);
        if (!file.open(QIODevice::WriteOnly) || file.write(pd::warmUpCsv(*result)) < 0 || !file.commit())
            err << "pdctl warmup: cannot write " << csvPath << ": " << file.errorString() << '\n';
    }
    if (asJson)
        out << QString::fromStdString(pd::warmUpJson(*result).dump(2)) << '\n';
    else
        out << pd::warmUpTable(*result);
    if (!result->auditError.isEmpty())
        err << "pdctl warmup: " << result->auditError << '\n';
    return result->allOk() ? 0 : 1;
}

} // namespace pdctl
