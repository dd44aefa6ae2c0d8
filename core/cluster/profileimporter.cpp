// SPDX-License-Identifier: MIT
#include "cluster/profileimporter.h"

#include "cluster/instancekey.h"

#include "cluster/shellwords.h"
#include "cluster/strictjson.h"

#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

namespace pd {

namespace {

using ojson = nlohmann::ordered_json;

// argparse-like option reader: "--flag v1 v2 ..." (nargs '+') and "--flag=value".
struct Options {
    QMap<QString, QStringList> values;
    QStringList order;
};

bool readOptions(const QStringList &words, const QStringList &known, Options *out, QStringList *errors)
{
    QString current;
    for (const QString &word : words) {
        if (word.startsWith(QLatin1String("--"))) {
            QString name = word.mid(2);
            QString inlineValue;
            bool hasInline = false;
            if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
                inlineValue = name.mid(eq + 1);
                name = name.left(eq);
                hasInline = true;
            }
            if (!known.contains(name)) {
                errors->append(QStringLiteral("unrecognized argument: --%1").arg(name));
                current.clear();
                continue;
            }
            out->values[name] = {}; // argparse: the last occurrence wins
            out->order.append(name);
            current = name;
            if (hasInline) {
                out->values[name].append(inlineValue);
                current.clear();
            }
            continue;
        }
        if (current.isEmpty()) {
            errors->append(QStringLiteral("unexpected argument \"%1\"").arg(word));
            continue;
        }
        out->values[current].append(word);
    }
    for (auto it = out->values.cbegin(); it != out->values.cend(); ++it) {
        if (it.value().isEmpty())
            errors->append(QStringLiteral("--%1: expected at least one value").arg(it.key()));
    }
    return errors->isEmpty();
}

bool toInts(const Options &o, const QString &name, QList<int> *out, QStringList *errors, int min, int max)
{
    out->clear();
    for (const QString &v : o.values.value(name)) {
        bool ok = false;
        const int n = v.toInt(&ok);
        if (!ok || n < min || n > max) {
            errors->append(QStringLiteral("--%1: \"%2\" is not an integer in %3..%4").arg(name, v).arg(min).arg(max));
            return false;
        }
        out->append(n);
    }
    return true;
}

bool singleInt(const Options &o, const QString &name, int *out, QStringList *errors, int min, int max)
{
    if (!o.values.contains(name))
        return true;
    QList<int> v;
    if (!toInts(o, name, &v, errors, min, max))
        return false;
    if (v.size() != 1) {
        errors->append(QStringLiteral("--%1 takes one value").arg(name));
        return false;
    }
    *out = v.first();
    return true;
}

bool singleDouble(const Options &o, const QString &name, double *out, QStringList *errors)
{
    if (!o.values.contains(name))
        return true;
    const QStringList v = o.values.value(name);
    bool ok = false;
    const double d = v.size() == 1 ? v.first().toDouble(&ok) : 0.0;
    if (!ok || d < 0) {
        errors->append(QStringLiteral("--%1: expected one non-negative number").arg(name));
        return false;
    }
    *out = d;
    return true;
}

// One role's instance list from the command line, expanded like the proxy of that generation.
bool expandRole(const Options &o, const QString &prefix, const QString &roleWord, const QString &defaultHost,
                int defaultPort, QStringList *instances, QStringList *errors, QStringList *warnings)
{
    QStringList hosts = o.values.value(prefix + QLatin1String("-hosts"), {defaultHost});
    QList<int> ports{defaultPort};
    if (o.values.contains(prefix + QLatin1String("-ports")) &&
        !toInts(o, prefix + QLatin1String("-ports"), &ports, errors, 1, 65535))
        return false;
    if (!o.values.contains(prefix + QLatin1String("-hosts")))
        warnings->append(QStringLiteral("no --%1-hosts: the proxy's default %2 is assumed").arg(prefix, defaultHost));
    if (hosts.size() != ports.size()) {
        errors->append(QStringLiteral("Number of %1 hosts must match number of %1 ports (%2 hosts, %3 ports)")
                           .arg(roleWord)
                           .arg(hosts.size())
                           .arg(ports.size()));
        return false;
    }
    const QString numFlag = prefix + QLatin1String("-hosts-num");
    const QString incFlag = prefix + QLatin1String("-ports-inc");
    QStringList expandedHosts = hosts;
    QList<int> expandedPorts = ports;
    if (o.values.contains(numFlag)) {
        QList<int> nums;
        if (!toInts(o, numFlag, &nums, errors, 0, 100000))
            return false;
        if (nums.size() != hosts.size()) {
            errors->append(QStringLiteral("--%1 needs one count per host (%2 hosts, %3 counts)")
                               .arg(numFlag).arg(hosts.size()).arg(nums.size()));
            return false;
        }
        expandedHosts.clear();
        for (qsizetype i = 0; i < hosts.size(); ++i)
            for (int k = 0; k < nums.at(i); ++k)
                expandedHosts.append(hosts.at(i));
    }
    if (o.values.contains(incFlag)) {
        QList<int> incs;
        if (!toInts(o, incFlag, &incs, errors, 0, 100000))
            return false;
        if (incs.size() != ports.size()) {
            errors->append(QStringLiteral("--%1 needs one increment per port (%2 ports, %3 increments)")
                               .arg(incFlag).arg(ports.size()).arg(incs.size()));
            return false;
        }
        expandedPorts.clear();
        for (qsizetype i = 0; i < ports.size(); ++i)
            for (int k = 0; k < incs.at(i); ++k)
                expandedPorts.append(ports.at(i) + k);
    }
    if (expandedHosts.size() != expandedPorts.size())
        warnings->append(QStringLiteral("%1: the expanded lists differ (%2 hosts, %3 ports); the v0.9.1-dev proxy "
                                        "silently keeps only the first %4 pairs. Keep --%5 equal to --%6 per host.")
                             .arg(prefix)
                             .arg(expandedHosts.size())
                             .arg(expandedPorts.size())
                             .arg(qMin(expandedHosts.size(), expandedPorts.size()))
                             .arg(numFlag, incFlag));
    QSet<QString> seen;
    for (qsizetype i = 0; i < qMin(expandedHosts.size(), expandedPorts.size()); ++i) {
        const QString id = expandedHosts.at(i) + QLatin1Char(':') + QString::number(expandedPorts.at(i));
        if (seen.contains(proxyInstanceKey(id))) {
            warnings->append(QStringLiteral("%1 is listed twice; the proxy merges it silently").arg(id));
            continue;
        }
        seen.insert(proxyInstanceKey(id));
        instances->append(id);
    }
    return true;
}

} // namespace

bool parseProxyCommandLine(const QString &commandLine, ProxyCommandLine *out, QStringList *errors,
                           QStringList *warnings)
{
    QString splitError;
    const auto words = splitShellWords(commandLine, &splitError);
    if (!words) {
        errors->append(QStringLiteral("proxy command line: ") + splitError);
        return false;
    }
    QStringList args = *words;
    // Drop "python3", "python -u", the script name and anything else before the first option.
    while (!args.isEmpty() && !args.first().startsWith(QLatin1String("--"))) {
        if (args.first().endsWith(QLatin1String(".py")))
            out->scriptPath = args.first();
        args.removeFirst();
    }
    static const QStringList known{
        QStringLiteral("host"), QStringLiteral("port"),
        QStringLiteral("prefiller-hosts"), QStringLiteral("prefiller-ports"),
        QStringLiteral("decoder-hosts"), QStringLiteral("decoder-ports"),
        QStringLiteral("prefiller-hosts-num"), QStringLiteral("prefiller-ports-inc"),
        QStringLiteral("decoder-hosts-num"), QStringLiteral("decoder-ports-inc"),
        QStringLiteral("max-retries"), QStringLiteral("retry-delay"),
        QStringLiteral("max-waiting-retries"), QStringLiteral("waiting-retry-interval"),
        QStringLiteral("workers"), QStringLiteral("log-level")};
    Options o;
    QStringList localErrors;
    readOptions(args, known, &o, &localErrors);
    if (!localErrors.isEmpty()) {
        for (const QString &e : localErrors)
            errors->append(QStringLiteral("proxy command line: ") + e);
        return false;
    }
    const bool v091 = o.values.contains(QStringLiteral("prefiller-hosts-num")) ||
                      o.values.contains(QStringLiteral("prefiller-ports-inc")) ||
                      o.values.contains(QStringLiteral("decoder-hosts-num")) ||
                      o.values.contains(QStringLiteral("decoder-ports-inc"));
    out->numIncFlags = v091;
    const bool v091Folder = out->scriptPath.contains(QLatin1String("disaggregate_prefill_v1/"));
    out->generation = v091 || v091Folder ? ProxyGeneration::V091Dev : ProxyGeneration::Main;
    if (o.values.contains(QStringLiteral("host")))
        out->host = o.values.value(QStringLiteral("host")).constLast();
    singleInt(o, QStringLiteral("port"), &out->port, &localErrors, 1, 65535);
    singleInt(o, QStringLiteral("max-retries"), &out->maxRetries, &localErrors, -1000, 1000);
    singleDouble(o, QStringLiteral("retry-delay"), &out->retryDelay, &localErrors);
    singleInt(o, QStringLiteral("max-waiting-retries"), &out->maxWaitingRetries, &localErrors, 1, 100000);
    singleDouble(o, QStringLiteral("waiting-retry-interval"), &out->waitingRetryInterval, &localErrors);
    singleInt(o, QStringLiteral("workers"), &out->workers, &localErrors, 1, 1024);
    if (out->maxRetries < 0)
        out->maxRetries = 0;
    expandRole(o, QStringLiteral("prefiller"), QStringLiteral("prefiller"), QStringLiteral("localhost"), 8001,
               &out->prefillInstances, &localErrors, warnings);
    expandRole(o, QStringLiteral("decoder"), QStringLiteral("decoder"), QStringLiteral("localhost"), 8002,
               &out->decodeInstances, &localErrors, warnings);
    for (const QString &e : localErrors)
        errors->append(QStringLiteral("proxy command line: ") + e);
    return localErrors.isEmpty();
}

bool parseLauncherParameters(const QString &spec, LauncherParameters *out, QString *error)
{
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    if (colon <= 0) {
        *error = QStringLiteral("launcher \"%1\": expected HOST[/ROLE]: PARAMETERS").arg(spec.left(60));
        return false;
    }
    QString target = spec.left(colon).trimmed();
    const QString body = spec.mid(colon + 1);
    if (const qsizetype slash = target.indexOf(QLatin1Char('/')); slash >= 0) {
        const QString role = target.mid(slash + 1);
        if (role == QLatin1String("prefill"))
            out->role = Role::Prefill;
        else if (role == QLatin1String("decode"))
            out->role = Role::Decode;
        else {
            *error = QStringLiteral("launcher for %1: role \"%2\" is neither prefill nor decode").arg(target.left(slash), role);
            return false;
        }
        target = target.left(slash);
    }
    out->host = target;
    const QString where = QStringLiteral("launcher for %1").arg(target);
    EngineGroup &g = out->group;
    g.dpRankStart = 0;
    g.tpSize = 1;

    if (body.contains(QLatin1String("--"))) {
        // main: launch_online_dp.py flags
        out->flavor = LaunchFlavor::Main;
        QString splitError;
        const auto words = splitShellWords(body, &splitError);
        if (!words) {
            *error = where + QStringLiteral(": ") + splitError;
            return false;
        }
        QStringList args = *words;
        while (!args.isEmpty() && !args.first().startsWith(QLatin1String("--")))
            args.removeFirst();
        static const QStringList known{QStringLiteral("dp-size"), QStringLiteral("tp-size"),
                                       QStringLiteral("dp-size-local"), QStringLiteral("dp-rank-start"),
                                       QStringLiteral("dp-address"), QStringLiteral("dp-rpc-port"),
                                       QStringLiteral("vllm-start-port")};
        Options o;
        QStringList errors;
        readOptions(args, known, &o, &errors);
        for (const char *required : {"dp-size", "dp-address"}) {
            if (!o.values.contains(QString::fromLatin1(required)))
                errors.append(QStringLiteral("--%1 is required").arg(QLatin1String(required)));
        }
        int local = -1;
        g.engineStartPort = 9000;
        g.dpPort = 12345;
        singleInt(o, QStringLiteral("dp-size"), &g.dpSize, &errors, 1, 1 << 20);
        singleInt(o, QStringLiteral("tp-size"), &g.tpSize, &errors, 1, 1024);
        singleInt(o, QStringLiteral("dp-size-local"), &local, &errors, -1, 4096);
        singleInt(o, QStringLiteral("dp-rank-start"), &g.dpRankStart, &errors, 0, 1 << 20);
        singleInt(o, QStringLiteral("dp-rpc-port"), &g.dpPort, &errors, 1, 65535);
        singleInt(o, QStringLiteral("vllm-start-port"), &g.engineStartPort, &errors, 1, 65535);
        if (o.values.contains(QStringLiteral("dp-address")))
            g.dpAddress = o.values.value(QStringLiteral("dp-address")).constLast();
        g.dpSizeLocal = local <= 0 ? g.dpSize : local;
        out->tpSizeGiven = true;
        if (!errors.isEmpty()) {
            *error = where + QStringLiteral(": ") + errors.join(QStringLiteral("; "));
            return false;
        }
        return true;
    }

    // v0.9.1: launcher variables, as words "a=b" or as the file's "a = b  # comment" lines.
    out->flavor = LaunchFlavor::V091;
    static const QRegularExpression assignment(
        QStringLiteral("(?:^|[\\s;])([a-z_]+)\\s*=\\s*(\"[^\"\\n]*\"|'[^'\\n]*'|[^\\s#;]+)"));
    QHash<QString, QString> vars;
    auto it = assignment.globalMatch(body);
    while (it.hasNext()) {
        const auto m = it.next();
        QString value = m.captured(2);
        if (value.size() >= 2 && (value.startsWith(QLatin1Char('"')) || value.startsWith(QLatin1Char('\''))))
            value = value.mid(1, value.size() - 2);
        vars.insert(m.captured(1), value);
    }
    static const QStringList knownVars{QStringLiteral("dp_size"), QStringLiteral("dp_size_local"),
                                       QStringLiteral("dp_rank_start"), QStringLiteral("dp_ip"),
                                       QStringLiteral("dp_port"), QStringLiteral("engine_port"),
                                       QStringLiteral("tp_size"), QStringLiteral("template_path")};
    QStringList errors;
    for (auto v = vars.cbegin(); v != vars.cend(); ++v) {
        if (!knownVars.contains(v.key()))
            errors.append(QStringLiteral("unknown launcher variable \"%1\"").arg(v.key()));
    }
    auto intVar = [&](const char *name, int *into, int min, int max, bool required) {
        const QString key = QString::fromLatin1(name);
        if (!vars.contains(key)) {
            if (required)
                errors.append(QStringLiteral("%1 is required").arg(key));
            return;
        }
        bool ok = false;
        const int v = vars.value(key).toInt(&ok);
        if (!ok || v < min || v > max)
            errors.append(QStringLiteral("%1 = \"%2\" is not an integer in %3..%4").arg(key, vars.value(key)).arg(min).arg(max));
        else
            *into = v;
    };
    g.engineStartPort = 9000;
    g.dpPort = 13395;
    intVar("dp_size", &g.dpSize, 1, 1 << 20, true);
    g.dpSizeLocal = g.dpSize;
    intVar("dp_size_local", &g.dpSizeLocal, 1, 4096, false);
    intVar("dp_rank_start", &g.dpRankStart, 0, 1 << 20, false);
    intVar("dp_port", &g.dpPort, 1, 65535, false);
    intVar("engine_port", &g.engineStartPort, 1, 65535, false);
    intVar("tp_size", &g.tpSize, 1, 1024, false);
    out->tpSizeGiven = vars.contains(QStringLiteral("tp_size"));
    if (!vars.contains(QStringLiteral("dp_ip")))
        errors.append(QStringLiteral("dp_ip is required"));
    g.dpAddress = vars.value(QStringLiteral("dp_ip"));
    if (!errors.isEmpty()) {
        *error = where + QStringLiteral(": ") + errors.join(QStringLiteral("; "));
        return false;
    }
    return true;
}

bool parseRanktable(const QByteArray &json, QList<RanktableServer> *out, QStringList *errors)
{
    const StrictJsonResult parsed = parseStrictJson(json);
    if (!parsed.ok) {
        if (parsed.line > 0)
            errors->append(QStringLiteral("%1:%2: %3").arg(parsed.line).arg(parsed.column).arg(parsed.message));
        else
            errors->append(QStringLiteral("%1: %2").arg(parsed.pointer, parsed.message));
        return false;
    }
    const ojson &root = parsed.value;
    if (!root.is_object()) {
        errors->append(QStringLiteral("/: expected an object"));
        return false;
    }
    static const QSet<std::string> rootKeys{"version", "server_count", "prefill_device_list", "decode_device_list", "status"};
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (!rootKeys.contains(it.key()))
            errors->append(QStringLiteral("/%1: unknown key").arg(QString::fromStdString(it.key())));
    }
    if (root.contains("status") && !(root["status"].is_string() && root["status"].get<std::string>() == "completed"))
        errors->append(QStringLiteral("/status: expected \"completed\" (the rank table generation did not finish)"));
    QMap<QString, int> serverIndex;
    for (const Role role : {Role::Prefill, Role::Decode}) {
        const char *key = role == Role::Prefill ? "prefill_device_list" : "decode_device_list";
        const QString lp = QStringLiteral("/") + QLatin1String(key);
        if (!root.contains(key)) {
            errors->append(QStringLiteral("%1: missing").arg(lp));
            continue;
        }
        const ojson &list = root[key];
        if (!list.is_array()) {
            errors->append(QStringLiteral("%1: expected an array").arg(lp));
            continue;
        }
        QMap<QString, QMap<int, QString>> devices; // server -> device id -> ip
        QStringList order;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const ojson &d = list[i];
            const QString dp = QStringLiteral("%1/%2").arg(lp).arg(i);
            if (!d.is_object()) {
                errors->append(QStringLiteral("%1: expected an object").arg(dp));
                continue;
            }
            static const QSet<std::string> deviceKeys{"server_id", "device_id", "device_ip", "cluster_id",
                                                      "super_pod_id", "super_device_id"};
            bool bad = false;
            for (auto it = d.begin(); it != d.end(); ++it) {
                if (!deviceKeys.contains(it.key())) {
                    errors->append(QStringLiteral("%1/%2: unknown key").arg(dp, QString::fromStdString(it.key())));
                    bad = true;
                }
            }
            for (const char *k : {"server_id", "device_id", "device_ip"}) {
                if (!d.contains(k) || !d[k].is_string()) {
                    errors->append(QStringLiteral("%1/%2: expected a string").arg(dp, QLatin1String(k)));
                    bad = true;
                }
            }
            if (bad)
                continue;
            const QString server = QString::fromStdString(d["server_id"].get<std::string>());
            bool ok = false;
            const int deviceId = QString::fromStdString(d["device_id"].get<std::string>()).toInt(&ok);
            if (!ok || deviceId < 0 || deviceId > 1023) {
                errors->append(QStringLiteral("%1/device_id: not a device number").arg(dp));
                continue;
            }
            if (devices[server].contains(deviceId)) {
                errors->append(QStringLiteral("%1/device_id: device %2 of %3 is listed twice").arg(dp).arg(deviceId).arg(server));
                continue;
            }
            if (!order.contains(server))
                order.append(server);
            devices[server].insert(deviceId, QString::fromStdString(d["device_ip"].get<std::string>()));
            if (!serverIndex.contains(server)) {
                serverIndex.insert(server, int(out->size()));
                RanktableServer s;
                s.serverId = server;
                s.role = role;
                out->append(s);
            } else if ((*out)[serverIndex.value(server)].role != role) {
                errors->append(QStringLiteral("%1/server_id: %2 has devices in both the prefill and the decode list; "
                                              "pdconsole models one role per node").arg(dp, server));
                continue;
            }
            if (d.contains("super_pod_id") || d.contains("super_device_id"))
                (*out)[serverIndex.value(server)].isA3 = true;
        }
        for (const QString &server : order) {
            RanktableServer &s = (*out)[serverIndex.value(server)];
            if (s.role == role)
                s.deviceIps = devices.value(server).values();
        }
    }
    if (root.contains("server_count")) {
        const ojson &count = root["server_count"];
        const int n = count.is_string() ? QString::fromStdString(count.get<std::string>()).toInt() : -1;
        if (n != out->size())
            errors->append(QStringLiteral("/server_count: says %1 but the device lists name %2 servers")
                               .arg(count.is_string() ? QString::fromStdString(count.get<std::string>()) : QStringLiteral("?"))
                               .arg(out->size()));
    }
    return errors->isEmpty();
}

} // namespace pd
