// SPDX-License-Identifier: MIT
#include "cluster/startscript.h"

#include "cluster/shellwords.h"
#include "cluster/strictjson.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace pd {

namespace {

using ojson = nlohmann::ordered_json;

struct LogicalLine {
    QString text;
    int line = 0; // 1-based, where it starts
};

// Where a `# comment` starts in `text` outside quotes (-1 when none), and whether a quote opened in
// `text` is still open at its end, reading on past the comment (so the next physical line continues it).
struct QuoteScan {
    qsizetype commentAt = -1;
    bool quoteOpen = false;
};

QuoteScan scanQuotes(const QString &text)
{
    QuoteScan scan;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quote.isNull()) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('\'') || c == QLatin1Char('"'))
                quote = c;
            else if (c == QLatin1Char('#') && scan.commentAt < 0 && (i == 0 || text.at(i - 1).isSpace()))
                scan.commentAt = i;
        } else if (c == quote) {
            quote = QChar();
        } else if (quote == QLatin1Char('"') && c == QLatin1Char('\\')) {
            ++i;
        }
    }
    scan.quoteOpen = !quote.isNull();
    return scan;
}

bool quoteOpenAtEnd(const QString &text)
{
    return scanQuotes(text).quoteOpen;
}

// Drops a `# comment` that starts a word outside quotes.
QString withoutComment(const QString &text)
{
    const qsizetype at = scanQuotes(text).commentAt;
    return at < 0 ? text : text.left(at);
}

bool endsWithContinuation(const QString &text)
{
    qsizetype n = 0;
    for (qsizetype i = text.size() - 1; i >= 0 && text.at(i) == QLatin1Char('\\'); --i)
        ++n;
    return n % 2 == 1;
}

QList<LogicalLine> logicalLines(const QString &text)
{
    QList<LogicalLine> out;
    const QStringList physical = text.split(QLatin1Char('\n'));
    LogicalLine current;
    bool open = false;
    for (int i = 0; i < physical.size(); ++i) {
        QString line = physical.at(i);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (!open) {
            line = withoutComment(line);
            if (line.trimmed().isEmpty())
                continue;
            current = LogicalLine{line, i + 1};
        } else if (quoteOpenAtEnd(current.text)) {
            current.text += QLatin1Char('\n') + line;
        } else {
            // A continuation: a comment line inside it ends the command, as in bash.
            const QString stripped = withoutComment(line);
            if (line.trimmed().startsWith(QLatin1Char('#'))) {
                out.append(current);
                open = false;
                continue;
            }
            current.text += QLatin1Char('\n') + stripped;
        }
        open = endsWithContinuation(current.text) || quoteOpenAtEnd(current.text);
        if (!open)
            out.append(current);
    }
    if (open)
        out.append(current); // splitShellWords names the unterminated quote
    return out;
}

// $NAME and ${NAME} from the script's own variables, outside single quotes. Unknown names stay as
// they are and are reported once.
QString expandVariables(const QString &text, const QHash<QString, QString> &vars, QSet<QString> *unknown)
{
    static const QRegularExpression name(QStringLiteral("^(?:\\{([A-Za-z_][A-Za-z0-9_]*)\\}|([A-Za-z_][A-Za-z0-9_]*))"));
    QString out;
    bool inSingle = false;
    bool inDouble = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\\') && !inSingle && i + 1 < text.size()) {
            out += c;
            out += text.at(++i);
            continue;
        }
        if (c == QLatin1Char('\'') && !inDouble)
            inSingle = !inSingle;
        else if (c == QLatin1Char('"') && !inSingle)
            inDouble = !inDouble;
        if (c != QLatin1Char('$') || inSingle) {
            out += c;
            continue;
        }
        const QRegularExpressionMatch m = name.match(QStringView(text).mid(i + 1));
        if (!m.hasMatch()) {
            out += c;
            continue;
        }
        const QString var = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
        if (vars.contains(var)) {
            out += vars.value(var);
        } else {
            unknown->insert(var);
            out += text.mid(i, m.capturedLength() + 1);
        }
        i += m.capturedLength();
    }
    return out;
}

bool isAssignment(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    return re.match(word).hasMatch();
}

// Words that end a simple command: control operators and redirections.
bool endsCommand(const QString &word)
{
    static const QSet<QString> operators { QStringLiteral("&"), QStringLiteral("&&"), QStringLiteral("|"),
        QStringLiteral("||"), QStringLiteral(";"), QStringLiteral("|&") };
    static const QRegularExpression redirection(QStringLiteral("^(?:[0-9]*>|&>|[0-9]*<)"));
    return operators.contains(word) || redirection.match(word).hasMatch();
}

const QSet<QString> &quietCommands()
{
    static const QSet<QString> names { QStringLiteral("cd"), QStringLiteral("set"), QStringLiteral("echo"),
        QStringLiteral("printf"), QStringLiteral("ulimit"), QStringLiteral("mkdir"), QStringLiteral("sleep"),
        QStringLiteral("wait"), QStringLiteral("trap"), QStringLiteral("unset"), QStringLiteral("shopt"),
        QStringLiteral("true"), QStringLiteral(":"), QStringLiteral("umask"), QStringLiteral("date") };
    return names;
}

QString where(const StartScript &script, int line) { return QStringLiteral("%1:%2").arg(script.name).arg(line); }

} // namespace

bool isNodeDerivedVariable(const QString &name)
{
    return name == QLatin1String("HCCL_IF_IP") || name == QLatin1String("GLOO_SOCKET_IFNAME")
           || name == QLatin1String("TP_SOCKET_IFNAME") || name == QLatin1String("HCCL_SOCKET_IFNAME");
}

bool parseStartScript(const StartScriptSource &source, StartScript *out, QStringList *errors, QStringList *warnings)
{
    *out = StartScript();
    out->name = source.name;
    out->host = source.host;
    QHash<QString, QString> vars;
    QSet<QString> unknownReported;
    bool found = false;
    for (const LogicalLine &line : logicalLines(source.text)) {
        QSet<QString> unknown;
        const QString expanded = expandVariables(line.text, vars, &unknown);
        QString error;
        const std::optional<QStringList> split = splitShellWords(expanded, &error);
        if (!split) {
            errors->append(QStringLiteral("%1: %2").arg(where(*out, line.line), error));
            return false;
        }
        QStringList words = *split;
        if (words.isEmpty() || words.first().startsWith(QLatin1String("#!")))
            continue;
        // Prefix assignments (`A=1 vllm serve ...`) go to the command's environment; alone they set variables.
        QList<QPair<QString, QString>> prefix;
        while (!words.isEmpty() && isAssignment(words.first())) {
            const QString w = words.takeFirst();
            const qsizetype eq = w.indexOf(QLatin1Char('='));
            prefix.append({w.left(eq), w.mid(eq + 1)});
        }
        if (words.isEmpty()) {
            for (const auto &[k, v] : prefix)
                vars.insert(k, v);
            continue;
        }
        while (!words.isEmpty()
               && (words.first() == QLatin1String("nohup") || words.first() == QLatin1String("exec")
                   || words.first() == QLatin1String("time") || words.first() == QLatin1String("env"))) {
            const bool env = words.first() == QLatin1String("env");
            words.removeFirst();
            while (env && !words.isEmpty() && isAssignment(words.first())) {
                const QString w = words.takeFirst();
                const qsizetype eq = w.indexOf(QLatin1Char('='));
                prefix.append({w.left(eq), w.mid(eq + 1)});
            }
        }
        if (words.isEmpty())
            continue;
        const QString command = words.first();
        for (const QString &var : std::as_const(unknown)) {
            if (!unknownReported.contains(var))
                warnings->append(QStringLiteral("%1: $%2 is not set by the script; kept as written").arg(where(*out, line.line), var));
            unknownReported.insert(var);
        }
        if (command == QLatin1String("export")) {
            for (qsizetype i = 1; i < words.size(); ++i) {
                const QString &w = words.at(i);
                if (w.startsWith(QLatin1Char('-')))
                    continue; // export -p / -n
                const qsizetype eq = w.indexOf(QLatin1Char('='));
                const QString key = eq < 0 ? w : w.left(eq);
                if (eq < 0) {
                    if (vars.contains(key))
                        out->exports.append({key, vars.value(key)});
                    continue;
                }
                const QString value = w.mid(eq + 1);
                vars.insert(key, value);
                for (qsizetype k = 0; k < out->exports.size(); ++k)
                    if (out->exports.at(k).first == key)
                        out->exports.removeAt(k--);
                out->exports.append({key, value});
            }
            continue;
        }
        if (command == QLatin1String("source") || command == QLatin1String(".")) {
            if (words.size() < 2)
                warnings->append(QStringLiteral("%1: `%2` without a file").arg(where(*out, line.line), command));
            else
                out->sourced.append(words.at(1));
            continue;
        }
        const bool vllmServe = command == QLatin1String("vllm") || command.endsWith(QLatin1String("/vllm"));
        const bool apiServer = (command.startsWith(QLatin1String("python")) || command.contains(QLatin1String("/python")))
                               && words.size() > 2 && words.at(1) == QLatin1String("-m")
                               && words.at(2) == QLatin1String("vllm.entrypoints.openai.api_server");
        if ((vllmServe && words.size() > 1 && words.at(1) == QLatin1String("serve")) || apiServer) {
            if (found) {
                warnings->append(QStringLiteral("%1: a second vllm command; only the first (line %2) is read")
                                     .arg(where(*out, line.line)).arg(out->serveLine));
                continue;
            }
            found = true;
            out->serveLine = line.line;
            for (const auto &[k, v] : prefix)
                out->exports.append({k, v});
            QStringList args = words.mid(apiServer ? 3 : 2);
            for (qsizetype i = 0; i < args.size(); ++i) {
                if (endsCommand(args.at(i))) {
                    args = args.mid(0, i);
                    break;
                }
            }
            if (vllmServe && !args.isEmpty() && !args.first().startsWith(QLatin1Char('-')))
                out->modelPath = args.takeFirst();
            out->serveArgs = args;
            continue;
        }
        if (quietCommands().contains(command))
            continue;
        warnings->append(QStringLiteral("%1: `%2` is not read (pdconsole reads export, source and the vllm command)")
                             .arg(where(*out, line.line), command));
    }
    if (!found) {
        errors->append(QStringLiteral("%1: no `vllm serve` (or python -m vllm.entrypoints.openai.api_server) command").arg(source.name));
        return false;
    }
    return true;
}

namespace {

// The command's flags as (flag, value) pairs in order; a flag without a value has an empty, absent value.
struct Flag {
    QString name;
    std::optional<QString> value;
    bool inline_ = false; // written --flag=value
};

QList<Flag> flagsOf(const QStringList &args, QStringList *positional)
{
    QList<Flag> flags;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (!a.startsWith(QLatin1Char('-')) || a == QLatin1String("-")) {
            positional->append(a);
            continue;
        }
        Flag f;
        const qsizetype eq = a.indexOf(QLatin1Char('='));
        if (a.startsWith(QLatin1String("--")) && eq > 0) {
            f.name = a.left(eq);
            f.value = a.mid(eq + 1);
            f.inline_ = true;
        } else {
            f.name = a;
            if (i + 1 < args.size() && !args.at(i + 1).startsWith(QLatin1String("--")))
                f.value = args.at(++i);
        }
        flags.append(f);
    }
    return flags;
}

// The environment: the node's own variables become node fields, the rest the role's env.
void readExports(const StartScript &script, StartScriptNode *out, QStringList *warnings)
{
    QString socketName;
    QString socketFrom;
    for (const auto &[key, value] : script.exports) {
        if (key == QLatin1String("HCCL_IF_IP")) {
            out->localIp = value;
            continue;
        }
        if (isNodeDerivedVariable(key)) {
            if (socketName.isEmpty()) {
                socketName = value;
                socketFrom = key;
            } else if (value != socketName) {
                warnings->append(QStringLiteral("%1: %2=%3 differs from %4=%5; the node's NIC is taken as %5 and pdconsole's "
                                                "launcher exports it for all three")
                                     .arg(script.name, key, value, socketFrom, socketName));
            }
            continue;
        }
        out->config.env.append({key, value});
    }
    out->nicName = socketName;
}

} // namespace

bool readStartScript(const StartScript &script, StartScriptNode *out, QStringList *errors, QStringList *warnings)
{
    *out = StartScriptNode();
    const QString at = where(script, script.serveLine);
    const qsizetype errorsBefore = errors->size();
    RoleConfig &c = out->config;
    c.modelPath = script.modelPath;
    c.extraArgs.clear();
    QStringList positional;
    const QList<Flag> flags = flagsOf(script.serveArgs, &positional);
    for (const QString &p : std::as_const(positional)) {
        c.extraArgs.append(p);
        warnings->append(QStringLiteral("%1: the word \"%2\" belongs to no flag; kept in extra_args").arg(at, p));
    }
    auto needValue = [&](const Flag &f) -> bool {
        if (f.value)
            return true;
        errors->append(QStringLiteral("%1: %2 without a value").arg(at, f.name));
        return false;
    };
    auto toInt = [&](const Flag &f, int *target, int min) {
        if (!needValue(f))
            return;
        bool ok = false;
        const int v = f.value->toInt(&ok);
        if (!ok || v < min)
            errors->append(QStringLiteral("%1: %2 \"%3\" is not a whole number of at least %4").arg(at, f.name, *f.value).arg(min));
        else
            *target = v;
    };
    auto toJson = [&](const Flag &f, ojson *target) {
        if (!needValue(f))
            return;
        const StrictJsonResult r = parseStrictJson(f.value->toUtf8());
        if (!r.ok) {
            errors->append(QStringLiteral("%1: %2 is not JSON (%3%4)")
                               .arg(at, f.name, r.line > 0 ? QStringLiteral("at %1:%2 of the value: ").arg(r.line).arg(r.column) : QString(),
                                    r.message));
            return;
        }
        if (!r.value.is_object()) {
            errors->append(QStringLiteral("%1: %2 is JSON but not an object").arg(at, f.name));
            return;
        }
        *target = r.value;
    };
    EngineGroup &g = out->group;
    g.dpAddress.clear();
    bool dpSizeLocalGiven = false;
    for (const Flag &f : flags) {
        const QString &n = f.name;
        if (n == QLatin1String("--model")) {
            if (needValue(f))
                c.modelPath = *f.value;
        } else if (n == QLatin1String("--served-model-name")) {
            if (needValue(f))
                c.servedModelName = *f.value;
        } else if (n == QLatin1String("--max-model-len")) {
            toInt(f, &c.maxModelLen, 1);
        } else if (n == QLatin1String("--max-num-batched-tokens")) {
            toInt(f, &c.maxNumBatchedTokens, 1);
        } else if (n == QLatin1String("--max-num-seqs")) {
            toInt(f, &c.maxNumSeqs, 1);
        } else if (n == QLatin1String("--gpu-memory-utilization")) {
            if (needValue(f)) {
                bool ok = false;
                const double v = f.value->toDouble(&ok);
                if (!ok || v <= 0 || v > 1)
                    errors->append(QStringLiteral("%1: %2 \"%3\" is not a fraction in (0, 1]").arg(at, n, *f.value));
                else
                    c.gpuMemoryUtilization = v;
            }
        } else if (n == QLatin1String("--kv-transfer-config")) {
            toJson(f, &c.kvTransferConfig);
        } else if (n == QLatin1String("--additional-config")) {
            toJson(f, &c.additionalConfig);
        } else if (n == QLatin1String("--speculative-config")) {
            toJson(f, &c.speculativeConfig);
        } else if (n == QLatin1String("--port")) {
            toInt(f, &g.engineStartPort, 1);
        } else if (n == QLatin1String("--host")) {
            // the bind address; the node's address comes from HOST, HCCL_IF_IP or the DP address
            needValue(f);
        } else if (n == QLatin1String("--data-parallel-size") || n == QLatin1String("-dp")) {
            toInt(f, &g.dpSize, 1);
        } else if (n == QLatin1String("--data-parallel-size-local") || n == QLatin1String("-dpl")) {
            toInt(f, &g.dpSizeLocal, 1);
            dpSizeLocalGiven = true;
        } else if (n == QLatin1String("--data-parallel-start-rank") || n == QLatin1String("-dpr")) {
            toInt(f, &g.dpRankStart, 0);
        } else if (n == QLatin1String("--data-parallel-address") || n == QLatin1String("-dpa")) {
            if (needValue(f))
                g.dpAddress = *f.value;
        } else if (n == QLatin1String("--data-parallel-rpc-port") || n == QLatin1String("-dpp")) {
            toInt(f, &g.dpPort, 1);
        } else if (n == QLatin1String("--tensor-parallel-size") || n == QLatin1String("-tp")) {
            toInt(f, &g.tpSize, 1);
        } else {
            // Everything else as written, so the engines start exactly as before.
            if (f.inline_)
                c.extraArgs.append(n + QLatin1Char('=') + *f.value);
            else {
                c.extraArgs.append(n);
                if (f.value)
                    c.extraArgs.append(*f.value);
            }
        }
    }
    if (!dpSizeLocalGiven)
        g.dpSizeLocal = g.dpSize;
    if (g.dpSizeLocal > g.dpSize)
        errors->append(QStringLiteral("%1: --data-parallel-size-local %2 is larger than --data-parallel-size %3")
                           .arg(at).arg(g.dpSizeLocal).arg(g.dpSize));
    if (c.modelPath.isEmpty())
        errors->append(QStringLiteral("%1: the vllm command names no model").arg(at));

    readExports(script, out, warnings);
    c.envScripts = script.sourced;

    const QString kvRole = c.kvRole();
    if (kvRole == QLatin1String("kv_producer"))
        out->role = Role::Prefill;
    else if (kvRole == QLatin1String("kv_consumer"))
        out->role = Role::Decode;
    else
        errors->append(QStringLiteral("%1: the role comes from --kv-transfer-config's kv_role (kv_producer or kv_consumer), "
                                      "which is %2")
                           .arg(at, kvRole.isEmpty() ? QStringLiteral("missing") : QStringLiteral("\"%1\"").arg(kvRole)));

    out->address = !script.host.isEmpty() ? script.host : !out->localIp.isEmpty() ? out->localIp : g.dpAddress;
    if (out->address.isEmpty())
        errors->append(QStringLiteral("%1: cannot tell which node this script runs on: give it as HOST:FILE, or the script "
                                      "exports HCCL_IF_IP or passes --data-parallel-address").arg(script.name));
    if (out->localIp.isEmpty())
        out->localIp = out->address;
    if (g.dpAddress.isEmpty())
        g.dpAddress = out->address;
    return errors->size() == errorsBefore;
}

} // namespace pd
