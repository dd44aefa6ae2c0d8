// SPDX-License-Identifier: MIT
#include "profilecommands.h"
#include "verbparser.h"

#include "cluster/importfiles.h"
#include "cluster/profileformat.h"
#include "cluster/profileimporter.h"
#include "cluster/profilejson.h"
#include "cluster/profilevalidator.h"
#include "exec/runnerfactory.h"
#include "exec/shellarg.h"

#include <QFile>
#include <QSaveFile>

namespace pdctl {

namespace {


std::optional<pd::Profile> load(const QString &path, QTextStream &err)
{
    const pd::ProfileLoadResult result = pd::loadProfileFile(path);
    for (const pd::ProfileError &error : result.errors)
        err << error.format(path) << '\n';
    return result.profile;
}

int validate(const QStringList &args, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("profile validate"), QStringLiteral("usage: pdctl profile validate FILE"));
    if (!p.parse(args, err, 1))
        return pdctl::kUsageExit;
    const QString path = p.positionalArguments().first();
    const pd::ProfileLoadResult loaded = pd::loadProfileFile(path);
    for (const pd::ProfileError &error : loaded.errors)
        out << error.format(path) << '\n';
    if (!loaded.profile)
        return 1;
    const QList<pd::ValidationIssue> issues = pd::validateProfile(*loaded.profile);
    for (const pd::ValidationIssue &issue : issues) {
        out << path << ": " << issue.pointer << ": "
            << (issue.severity == pd::Severity::Warning ? "warning: " : "") << issue.message << '\n';
    }
    return pd::hasErrors(issues) ? 1 : 0;
}

int show(const QStringList &args, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("profile show"), QStringLiteral("usage: pdctl profile show FILE [--json]"));
    p.flag(QStringLiteral("json"));
    if (!p.parse(args, err, 1))
        return pdctl::kUsageExit;
    const bool json = p.isSet(QStringLiteral("json"));
    const auto profile = load(p.positionalArguments().first(), err);
    if (!profile)
        return 1;
    if (json) {
        out << QString::fromStdString(pd::profileSummaryJson(*profile).dump(2)) << '\n';
        return 0;
    }
    out << pd::profileSummaryTable(*profile);
    return 0;
}

bool writeOutput(const QByteArray &bytes, const QString &path, QTextStream &out, QTextStream &err)
{
    if (path.isEmpty()) {
        out << QString::fromUtf8(bytes);
        return true;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        err << path << ": cannot write: " << file.errorString() << '\n';
        return false;
    }
    return true;
}

using pd::kMaxStartScriptBytes;

// A start script named [HOST:]FILE: read here, or on HOST (`user@host` too) through its runner.
// Nullopt with the reason on err.
std::optional<pd::StartScriptSource> readStartScript(const QString &spec, pd::RunnerFactory &runners, QTextStream &err)
{
    pd::StartScriptSource source;
    source.name = spec;
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    const qsizetype slash = spec.indexOf(QLatin1Char('/'));
    const bool remote = colon > 0 && (slash < 0 || colon < slash);
    if (!remote) {
        QString why;
        const std::optional<QByteArray> bytes = pd::readImportFile(spec, kMaxStartScriptBytes, QStringLiteral("a start script"), &why);
        if (!bytes) {
            err << why << '\n';
            return std::nullopt;
        }
        source.text = QString::fromUtf8(*bytes);
        return source;
    }
    const QString hostPart = spec.left(colon);
    const QString path = spec.mid(colon + 1);
    pd::CommandTarget target;
    const qsizetype at = hostPart.indexOf(QLatin1Char('@'));
    target.user = at > 0 ? hostPart.left(at) : QString();
    target.host = at > 0 ? hostPart.mid(at + 1) : hostPart;
    target.node = target.host;
    source.host = target.host;
    QString why;
    const std::shared_ptr<pd::CommandRunner> runner = runners.runner(target, &why);
    if (!runner) {
        err << spec << ": " << why << '\n';
        return std::nullopt;
    }
    // One byte more than the cap tells a file that is too large from one that fits.
    const QByteArray command = "head -c " + QByteArray::number(kMaxStartScriptBytes + 1) + " -- " + pd::shellArg(path);
    const pd::CommandResult r = runner->run(target, command, std::chrono::seconds(30));
    if (!r.ok()) {
        err << spec << ": cannot read it on " << target.host << ": "
            << (!r.error.isEmpty() ? r.error : r.timedOut ? QStringLiteral("no answer in 30 s") : QString::fromUtf8(r.err).trimmed())
            << '\n';
        return std::nullopt;
    }
    if (r.out.size() > kMaxStartScriptBytes) {
        err << spec << ": larger than 1 MB; a start script is at most 1 MB\n";
        return std::nullopt;
    }
    source.text = QString::fromUtf8(r.out);
    return source;
}

int import(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("profile import"),
                 QStringLiteral("usage: pdctl profile import [--proxy-args '...'] [--launcher 'HOST[/ROLE]: ...']... "
                                "[--ranktable FILE] [--start-script [HOST:]FILE]... [--container docker|podman:NAME] "
                                "[--env-script FILE]... [--proxy-generation v0.9.1-dev|main] [--name NAME] [-o FILE]"));
    for (const char *name : {"proxy-args", "launcher", "ranktable", "name", "proxy-generation", "start-script", "env-script", "container"})
        p.option(QString::fromLatin1(name), QStringLiteral("VALUE"));
    p.option({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("FILE"));
    if (!p.parse(args, err))
        return pdctl::kUsageExit;
    pd::ImportSources sources;
    sources.proxyCommandLine = p.value(QStringLiteral("proxy-args"));
    sources.launchers = p.values(QStringLiteral("launcher"));
    if (p.isSet(QStringLiteral("name")))
        sources.clusterName = p.value(QStringLiteral("name"));
    sources.envScripts = p.values(QStringLiteral("env-script"));
    const QString output = p.value(QStringLiteral("o"));
    const QString ranktablePath = p.value(QStringLiteral("ranktable"));
    const QStringList startScripts = p.values(QStringLiteral("start-script"));
    if (p.isSet(QStringLiteral("proxy-generation"))) {
        const QString g = p.value(QStringLiteral("proxy-generation"));
        if (g == QLatin1String("v0.9.1-dev"))
            sources.proxyGeneration = pd::ProxyGeneration::V091Dev;
        else if (g == QLatin1String("main"))
            sources.proxyGeneration = pd::ProxyGeneration::Main;
        else
            return p.usageError(err, QStringLiteral("--proxy-generation is v0.9.1-dev or main, not \"%1\"").arg(g));
    }
    if (p.isSet(QStringLiteral("container"))) {
        const QString spec = p.value(QStringLiteral("container"));
        const qsizetype colon = spec.indexOf(QLatin1Char(':'));
        const QString tool = spec.left(colon);
        if (colon <= 0 || colon == spec.size() - 1 || (tool != QLatin1String("docker") && tool != QLatin1String("podman")))
            return p.usageError(err, QStringLiteral("--container is docker:NAME or podman:NAME, not \"%1\"").arg(spec));
        sources.container.tool = tool;
        sources.container.name = spec.mid(colon + 1);
    }
    if (sources.proxyCommandLine.isEmpty() && sources.launchers.isEmpty() && ranktablePath.isEmpty() && startScripts.isEmpty()) {
        return p.usageError(err, QStringLiteral("give at least one of --proxy-args, --launcher, --ranktable, --start-script"));
    }
    for (const QString &spec : std::as_const(startScripts)) {
        const std::optional<pd::StartScriptSource> source = readStartScript(spec, runners, err);
        if (!source)
            return 1;
        sources.startScripts.append(*source);
    }
    if (!ranktablePath.isEmpty()) {
        QString why;
        const std::optional<QByteArray> bytes = pd::readImportFile(ranktablePath, pd::kMaxProfileBytes, QStringLiteral("a rank table"), &why);
        if (!bytes) {
            err << why << '\n';
            return 1;
        }
        sources.ranktable = *bytes;
        sources.ranktableName = ranktablePath;
    }
    const pd::ImportResult result = pd::importProfile(sources);
    for (const QString &w : result.warnings)
        err << "warning: " << w << '\n';
    for (const QString &e : result.errors)
        err << "error: " << e << '\n';
    if (!result.ok())
        return 1;
    const QList<pd::ValidationIssue> issues = pd::validateProfile(result.profile);
    for (const pd::ValidationIssue &issue : issues)
        err << (issue.severity == pd::Severity::Error ? "error: " : "warning: ") << issue.pointer << ": "
            << issue.message << '\n';
    if (!writeOutput(pd::serializeProfile(result.profile), output, out, err))
        return 1;
    return pd::hasErrors(issues) ? 1 : 0;
}

int format(const QStringList &args, QTextStream &out, QTextStream &err)
{
    VerbParser p(QStringLiteral("profile format"), QStringLiteral("usage: pdctl profile format FILE [-o FILE]"));
    p.option({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("FILE"));
    if (!p.parse(args, err, 1))
        return pdctl::kUsageExit;
    const QString output = p.value(QStringLiteral("o"));
    const auto profile = load(p.positionalArguments().first(), err);
    if (!profile)
        return 1;
    return writeOutput(pd::serializeProfile(*profile), output, out, err) ? 0 : 1;
}

} // namespace

int runProfileCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    const QString sub = args.value(0);
    if (sub == QLatin1String("validate"))
        return validate(args.mid(1), out, err);
    if (sub == QLatin1String("show"))
        return show(args.mid(1), out, err);
    if (sub == QLatin1String("import"))
        return import(args.mid(1), runners, out, err);
    if (sub == QLatin1String("format"))
        return format(args.mid(1), out, err);
    err << "pdctl profile: " << (sub.isEmpty() ? QStringLiteral("missing subcommand") : QStringLiteral("unknown subcommand \"%1\"").arg(sub))
        << "\nusage: pdctl profile validate|show|import|format ...  (pdctl --help)\n";
    return pdctl::kUsageExit;
}

} // namespace pdctl
