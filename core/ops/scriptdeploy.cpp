// SPDX-License-Identifier: MIT
#include "ops/scriptdeploy.h"

#include "exec/shellcommand.h"
#include "ops/launchspec.h"
#include "ops/linediff.h"
#include "ops/templatescript.h"

#include <QCryptographicHash>
#include <QRegularExpression>

namespace pd {

namespace {

// Above this the command line itself (one argv string for `sh -c`) would get near Linux's 128 KiB
// per-argument limit once base64 grows it by a third.
constexpr qsizetype kMaxUpload = 90 * 1024;

QString where(const CommandTarget &target, const QString &path)
{
    return QStringLiteral("%1 (%2): %3").arg(target.node, target.host, path);
}

QString failure(const CommandTarget &target, const QString &path, const CommandResult &result)
{
    if (!result.error.isEmpty())
        return where(target, path) + QStringLiteral(": ") + result.error;
    return where(target, path)
        + QStringLiteral(": exit status %1: %2")
              .arg(result.exitStatus)
              .arg(QString::fromUtf8(result.err.trimmed().right(400)));
}

QString shownPath(const QString &runDir, const QString &path)
{
    if (path.startsWith(QLatin1Char('/')))
        return path;
    return runDir + QLatin1Char('/') + (path.startsWith(QLatin1String("./")) ? path.mid(2) : path);
}

} // namespace

RemoteFile fetchRemoteFile(CommandRunner &runner, const CommandTarget &target, const QString &runDir,
    const QString &path, std::chrono::milliseconds timeout)
{
    RemoteFile file;
    ShellCommand c;
    c.syntax("cd")
        .word(QStringLiteral("run_dir"), runDir)
        .syntax("2>/dev/null || { echo pd-absent; exit 0; }")
        .newline();
    c.syntax("if [ -f")
        .word(QStringLiteral("path"), path)
        .syntax("]; then echo pd-file && cat --")
        .word(QStringLiteral("path"), path)
        .syntax("; else echo pd-absent; fi");
    if (!c.isValid()) {
        file.error = where(target, path) + QStringLiteral(": ") + c.error();
        return file;
    }
    const CommandResult result = runner.run(target, c.line(), timeout);
    if (!result.ok()) {
        file.error = failure(target, path, result);
        return file;
    }
    if (result.out.startsWith("pd-file\n")) {
        file.exists = true;
        file.content = result.out.mid(8);
    } else if (!result.out.startsWith("pd-absent")) {
        file.error = where(target, path) + QStringLiteral(": unexpected answer to cat");
    }
    return file;
}

QString uploadRemoteFile(CommandRunner &runner, const CommandTarget &target, const QString &runDir, const QString &path,
    const QByteArray &content, const QString &mode, std::chrono::milliseconds timeout)
{
    if (content.size() > kMaxUpload)
        return where(target, path)
            + QStringLiteral(": %1 bytes is more than the %2 bytes an upload through the shell carries")
                  .arg(content.size())
                  .arg(kMaxUpload);
    static const QRegularExpression octal(QStringLiteral("^[0-7]{3,4}$"));
    if (!octal.match(mode).hasMatch())
        return where(target, path) + QStringLiteral(": mode '%1' is not octal").arg(mode);
    QByteArray encoded;
    const QByteArray b64 = content.toBase64();
    for (qsizetype i = 0; i < b64.size(); i += 76)
        encoded += b64.mid(i, 76) + '\n';
    const QByteArray sum = QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex();

    ShellCommand c;
    c.syntax("mkdir -p")
        .word(QStringLiteral("run_dir"), runDir)
        .syntax("&& cd")
        .word(QStringLiteral("run_dir"), runDir)
        .syntax("|| exit 90")
        .newline();
    c.syntax("target=").gluedWord(QStringLiteral("path"), path).newline();
    c.syntax("tmp=\"$target.pdconsole-upload.$$\"").newline();
    c.syntax("base64 -d >\"$tmp\"")
        .hereDocument(QStringLiteral("content"), encoded, "PDCONSOLE_EOF")
        .syntax("&& chmod")
        .word(QStringLiteral("mode"), mode)
        .syntax("\"$tmp\" && mv -f \"$tmp\" \"$target\" || { rm -f \"$tmp\"; exit 91; }")
        .newline();
    c.syntax("sha256sum \"$target\"").newline();
    if (!c.isValid())
        return where(target, path) + QStringLiteral(": ") + c.error();
    const CommandResult result = runner.run(target, c.line(), timeout);
    if (!result.ok())
        return failure(target, path, result);
    if (!result.out.startsWith(sum))
        return where(target, path)
            + QStringLiteral(": written, but its SHA-256 is %1 instead of %2")
                  .arg(QString::fromLatin1(result.out.left(64)), QString::fromLatin1(sum));
    return QString();
}

ScriptPlan planTemplateScript(
    CommandRunner &runner, const Profile &profile, const Node &node, std::chrono::milliseconds timeout)
{
    ScriptPlan plan;
    plan.node = node.name;
    plan.path = shownPath(profile.runDir, profile.templatePath);
    const GeneratedScript script = generateTemplateScript(profile, node);
    plan.notes = script.notes;
    if (!script.error.isEmpty()) {
        plan.error = script.error;
        return plan;
    }
    plan.generated = script.text;
    plan.current = fetchRemoteFile(runner, nodeTarget(node), profile.runDir, profile.templatePath, timeout);
    if (!plan.current.error.isEmpty()) {
        plan.error = plan.current.error;
        return plan;
    }
    const QString label = QStringLiteral("%1:%2").arg(node.name, plan.path);
    plan.diff = unifiedDiff(plan.current.exists ? plan.current.content : QByteArray(), plan.generated,
        plan.current.exists ? label : QStringLiteral("/dev/null"), label + QStringLiteral(" (generated)"));
    return plan;
}

QString applyTemplateScript(CommandRunner &runner, const Profile &profile, const Node &node, const ScriptPlan &plan,
    std::chrono::milliseconds timeout)
{
    if (!plan.error.isEmpty())
        return plan.error;
    return uploadRemoteFile(
        runner, nodeTarget(node), profile.runDir, profile.templatePath, plan.generated, QStringLiteral("755"), timeout);
}

} // namespace pd
