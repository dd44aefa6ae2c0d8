// SPDX-License-Identifier: MIT
#include "warmupcommand.h"
#include "profileload.h"
#include "verbparser.h"

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

// Reads an integer option; false (with a message) when it is not a number.
bool intOption(const VerbParser &p, const QString &name, int *value, QTextStream &err)
{
    if (!p.isSet(name))
        return true;
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok) {
        err << "pdctl warmup: " << (name.size() == 1 ? "-" : "--") << name << " needs a whole number, got \"" << p.value(name) << "\"\n";
        return false;
    }
    *value = v;
    return true;
}

} // namespace

int runWarmUpCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("warmup"), QString::fromLatin1(kUsage));
    p.required(QStringLiteral("profile"), QStringLiteral("FILE"));
    for (const char *name : { "n", "concurrency", "prompt-tokens", "max-tokens", "model", "timeout", "audit", "csv" })
        p.option(QString::fromLatin1(name), QStringLiteral("VALUE"));
    p.flag(QStringLiteral("no-stream")).flag(QStringLiteral("json"));
    if (!p.parse(args, err))
        return kUsageExit;
    const QString profilePath = p.value(QStringLiteral("profile"));
    pd::WarmUpOptions o;
    int timeoutSeconds = o.requestTimeoutMs / 1000;
    if (!intOption(p, QStringLiteral("n"), &o.count, err) || !intOption(p, QStringLiteral("concurrency"), &o.concurrency, err)
        || !intOption(p, QStringLiteral("prompt-tokens"), &o.promptTokens, err)
        || !intOption(p, QStringLiteral("max-tokens"), &o.maxTokens, err)
        || !intOption(p, QStringLiteral("timeout"), &timeoutSeconds, err)) {
        err << kUsage;
        return kUsageExit;
    }
    o.requestTimeoutMs = timeoutSeconds * 1000;
    o.stream = !p.isSet(QStringLiteral("no-stream"));
    o.model = p.value(QStringLiteral("model"));
    if (const QString invalid = o.validate(); !invalid.isEmpty()) {
        err << "pdctl warmup: " << invalid << '\n';
        return 2;
    }

    const std::optional<pd::Profile> profile = loadProfileOrReport(profilePath, err);
    if (!profile)
        return 1;
    o.fallbackModel = profile->decode.servedModelName;
    const QString auditPath = p.value(QStringLiteral("audit"));
    pd::AuditLog audit(auditPath.isEmpty() ? pd::AuditLog::defaultPath() : auditPath);
    pd::WarmUpRun run(pd::profileProxyEndpoint(*profile), o, &audit);
    const bool asJson = p.isSet(QStringLiteral("json"));
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

    if (const QString csvPath = p.value(QStringLiteral("csv")); !csvPath.isEmpty()) {
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
