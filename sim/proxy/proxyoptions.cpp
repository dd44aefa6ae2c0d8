// SPDX-License-Identifier: MIT
#include "proxyoptions.h"

#include "proxytext.h"

#include <QHash>
#include <QRegularExpression>
#include <QtGlobal>

#include <algorithm>
#include <limits>

namespace pd::sim {

QString BackendAddress::displayName() const
{
    return host + QLatin1Char(':') + QString::number(port);
}

namespace {

enum class ArgKind { Str, Int, Float, StrList, IntList, Choice, Flag };

struct ArgSpec {
    const char *name;
    ArgKind kind;
    bool inMain;
    bool inV091;
};

// Flags of the two proxy generations plus pdsim's own (present in both).
constexpr ArgSpec kSpecs[] = {
    {"--host", ArgKind::Str, true, true},
    {"--port", ArgKind::Int, true, true},
    {"--prefiller-hosts", ArgKind::StrList, true, true},
    {"--prefiller-hosts-num", ArgKind::IntList, false, true},
    {"--prefiller-ports", ArgKind::IntList, true, true},
    {"--prefiller-ports-inc", ArgKind::IntList, false, true},
    {"--decoder-hosts", ArgKind::StrList, true, true},
    {"--decoder-hosts-num", ArgKind::IntList, false, true},
    {"--decoder-ports", ArgKind::IntList, true, true},
    {"--decoder-ports-inc", ArgKind::IntList, false, true},
    {"--max-retries", ArgKind::Int, true, true},
    {"--retry-delay", ArgKind::Float, true, true},
    {"--max-waiting-retries", ArgKind::Int, true, false},
    {"--waiting-retry-interval", ArgKind::Float, true, false},
    {"--workers", ArgKind::Int, true, false},
    {"--log-level", ArgKind::Choice, true, false},
    // pdsim's own
    {"--generation", ArgKind::Choice, true, true},
    {"--no-defect-listener-crash", ArgKind::Flag, true, true},
    {"--no-defect-empty-200", ArgKind::Flag, true, true},
    {"--backend-timeout", ArgKind::Float, true, true},
    {"--help", ArgKind::Flag, true, true},
};

const QStringList kLogLevels = {QStringLiteral("DEBUG"), QStringLiteral("INFO"),
                                QStringLiteral("WARNING"), QStringLiteral("ERROR"),
                                QStringLiteral("CRITICAL")};
const QStringList kGenerations = {QStringLiteral("main"), QStringLiteral("v0.9.1-dev")};

// argparse treats "-5" or "-.5" as a value when no option looks like a negative number.
bool looksLikeFlag(const QString &token)
{
    static const QRegularExpression negativeNumber(QStringLiteral("^-\\d+$|^-\\d*\\.\\d+$"));
    return token.startsWith(QLatin1Char('-')) && token.size() > 1
        && !negativeNumber.match(token).hasMatch();
}

// Python's int(): surrounding whitespace, a sign, digits with single underscores between them.
std::optional<int> pythonInt(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([+-]?)(\\d(?:_?\\d)*)\\s*$"));
    const auto match = re.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    QString digits = match.captured(2);
    digits.remove(QLatin1Char('_'));
    bool ok = false;
    const qlonglong value = digits.toLongLong(&ok);
    if (!ok || value > std::numeric_limits<int>::max())
        return std::nullopt;
    return match.captured(1) == QLatin1String("-") ? -int(value) : int(value);
}

std::optional<double> pythonFloat(const QString &text)
{
    QString t = text.trimmed().toLower();
    if (t.contains(QLatin1Char('_'))) {
        static const QRegularExpression badUnderscore(QStringLiteral("(^|[^0-9])_|_([^0-9]|$)"));
        if (badUnderscore.match(t).hasMatch())
            return std::nullopt;
        t.remove(QLatin1Char('_'));
    }
    if (t == QLatin1String("inf") || t == QLatin1String("+inf") || t == QLatin1String("infinity"))
        return std::numeric_limits<double>::infinity();
    if (t == QLatin1String("-inf") || t == QLatin1String("-infinity"))
        return -std::numeric_limits<double>::infinity();
    if (t == QLatin1String("nan") || t == QLatin1String("+nan") || t == QLatin1String("-nan"))
        return std::numeric_limits<double>::quiet_NaN();
    bool ok = false;
    const double value = t.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return value;
}

struct Parsed {
    QHash<QString, QStringList> values; // flag -> raw values (last occurrence wins)
    QStringList extras;
};

QString programName()
{
    return QStringLiteral("pdsim proxy");
}

QString usageError(ProxyGeneration generation, const QString &message)
{
    return ProxyOptions::usage(generation) + programName() + QStringLiteral(": error: ") + message
        + QLatin1Char('\n');
}

bool available(const ArgSpec &spec, ProxyGeneration generation)
{
    return generation == ProxyGeneration::Main ? spec.inMain : spec.inV091;
}

// Resolves a flag spelling to a spec like argparse: exact match or a unique prefix (allow_abbrev).
// Returns nullptr for unknown; sets *ambiguous when several flags match the prefix.
const ArgSpec *resolve(const QString &flag, ProxyGeneration generation, QString *ambiguous)
{
    QStringList candidates;
    const ArgSpec *found = nullptr;
    for (const ArgSpec &spec : kSpecs) {
        if (!available(spec, generation))
            continue;
        const QString name = QLatin1String(spec.name);
        if (name == flag)
            return &spec;
        if (name.startsWith(flag) && flag.size() > 2) {
            candidates << name;
            found = &spec;
        }
    }
    if (candidates.size() > 1) {
        *ambiguous = QStringLiteral("ambiguous option: %1 could match %2")
                         .arg(flag, candidates.join(QStringLiteral(", ")));
        return nullptr;
    }
    return found;
}

std::optional<Parsed> tokenize(const QStringList &arguments, ProxyGeneration generation,
                               QString *error)
{
    Parsed parsed;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString token = arguments.at(i);
        if (!looksLikeFlag(token)) {
            parsed.extras << token;
            continue;
        }
        QString flag = token;
        std::optional<QString> inlineValue;
        if (const qsizetype eq = token.indexOf(QLatin1Char('=')); eq > 0) {
            flag = token.left(eq);
            inlineValue = token.mid(eq + 1);
        }
        if (flag == QLatin1String("-h"))
            flag = QStringLiteral("--help");
        QString ambiguous;
        const ArgSpec *spec = resolve(flag, generation, &ambiguous);
        if (!ambiguous.isEmpty()) {
            *error = usageError(generation, ambiguous);
            return std::nullopt;
        }
        if (!spec) {
            parsed.extras << token;
            continue;
        }
        const QString name = QLatin1String(spec->name);
        QStringList values;
        switch (spec->kind) {
        case ArgKind::Flag:
            if (inlineValue) {
                *error = usageError(generation, QStringLiteral("argument %1: ignored explicit argument '%2'")
                                                    .arg(name, *inlineValue));
                return std::nullopt;
            }
            break;
        case ArgKind::StrList:
        case ArgKind::IntList:
            if (inlineValue) {
                values << *inlineValue;
            } else {
                while (i + 1 < arguments.size() && !looksLikeFlag(arguments.at(i + 1)))
                    values << arguments.at(++i);
            }
            if (values.isEmpty()) {
                *error = usageError(generation, QStringLiteral("argument %1: expected at least one argument").arg(name));
                return std::nullopt;
            }
            break;
        default:
            if (inlineValue) {
                values << *inlineValue;
            } else if (i + 1 < arguments.size() && !looksLikeFlag(arguments.at(i + 1))) {
                values << arguments.at(++i);
            } else {
                *error = usageError(generation, QStringLiteral("argument %1: expected one argument").arg(name));
                return std::nullopt;
            }
            break;
        }
        parsed.values.insert(name, values);
    }
    return parsed;
}

// argparse converts each value with the flag's type and reports the first bad one.
template<typename T, typename F>
std::optional<QList<T>> convert(const QString &flag, const QStringList &values, F converter,
                                const char *typeName, ProxyGeneration generation, QString *error)
{
    QList<T> out;
    for (const QString &value : values) {
        const auto converted = converter(value);
        if (!converted) {
            *error = usageError(generation, QStringLiteral("argument %1: invalid %2 value: %3")
                                                .arg(flag, QLatin1String(typeName), pythonRepr(value)));
            return std::nullopt;
        }
        out << *converted;
    }
    return out;
}

// v0.9.1-dev: each host repeated num times in place, each port p expanded to p..p+inc-1 in place.
QList<BackendAddress> expand(const QStringList &hosts, const QList<int> &ports,
                             const std::optional<QList<int>> &hostsNum,
                             const std::optional<QList<int>> &portsInc)
{
    QStringList expandedHosts;
    for (qsizetype i = 0; i < hosts.size(); ++i) {
        const int n = hostsNum ? hostsNum->at(i) : 1;
        for (int k = 0; k < n; ++k)
            expandedHosts << hosts.at(i);
    }
    QList<int> expandedPorts;
    for (qsizetype i = 0; i < ports.size(); ++i) {
        const int n = portsInc ? portsInc->at(i) : 1;
        for (int k = 0; k < n; ++k)
            expandedPorts << ports.at(i) + k;
    }
    QList<BackendAddress> out; // zip(): silently truncated to the shorter list
    const qsizetype n = std::min(expandedHosts.size(), expandedPorts.size());
    for (qsizetype i = 0; i < n; ++i)
        out.append({expandedHosts.at(i), expandedPorts.at(i)});
    return out;
}

// The generation decides which parser applies; find it first (last occurrence wins).
ProxyGeneration generationOf(const QStringList &arguments)
{
    ProxyGeneration generation = ProxyGeneration::Main;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        QString value;
        if (arguments.at(i) == QLatin1String("--generation") && i + 1 < arguments.size())
            value = arguments.at(i + 1);
        else if (arguments.at(i).startsWith(QLatin1String("--generation=")))
            value = arguments.at(i).mid(13);
        else
            continue;
        if (value == QLatin1String("v0.9.1-dev"))
            generation = ProxyGeneration::V091Dev;
        else if (value == QLatin1String("main"))
            generation = ProxyGeneration::Main;
    }
    return generation;
}

// Converts one flag's raw values the way argparse's type= and choices= would; the first error ends the
// parse with argparse's usage text in err.
struct FlagReader {
    const QHash<QString, QStringList> &v;
    ProxyGeneration generation;
    QString &err;

    std::optional<std::optional<QList<int>>> ints(const char *flag) const
    {
        const QString name = QLatin1String(flag);
        if (!v.contains(name))
            return std::optional<QList<int>>();
        auto list = convert<int>(name, v.value(name), pythonInt, "int", generation, &err);
        if (!list)
            return std::nullopt;
        return std::optional<QList<int>>(*list);
    }
    std::optional<double> floatValue(const char *flag, double fallback) const
    {
        const QString name = QLatin1String(flag);
        if (!v.contains(name))
            return fallback;
        auto list = convert<double>(name, v.value(name), pythonFloat, "float", generation, &err);
        if (!list)
            return std::nullopt;
        return list->first();
    }
    std::optional<QString> choice(const char *flag, const QStringList &choices, const QString &fallback) const
    {
        const QString name = QLatin1String(flag);
        if (!v.contains(name))
            return fallback;
        const QString value = v.value(name).first();
        if (choices.contains(value))
            return value;
        QStringList quoted;
        for (const QString &c : choices)
            quoted << pythonRepr(c);
        err = usageError(generation, QStringLiteral("argument %1: invalid choice: %2 (choose from %3)")
                                         .arg(name, pythonRepr(value), quoted.join(QStringLiteral(", "))));
        return std::nullopt;
    }
};

} // namespace

QString ProxyOptions::usage(ProxyGeneration generation)
{
    QString text = QStringLiteral("usage: pdsim proxy [-h] [--host HOST] [--port PORT]\n"
                                  "                   [--prefiller-hosts PREFILLER_HOSTS [PREFILLER_HOSTS ...]]\n");
    if (generation == ProxyGeneration::V091Dev)
        text += QStringLiteral("                   [--prefiller-hosts-num PREFILLER_HOSTS_NUM [PREFILLER_HOSTS_NUM ...]]\n");
    text += QStringLiteral("                   [--prefiller-ports PREFILLER_PORTS [PREFILLER_PORTS ...]]\n");
    if (generation == ProxyGeneration::V091Dev)
        text += QStringLiteral("                   [--prefiller-ports-inc PREFILLER_PORTS_INC [PREFILLER_PORTS_INC ...]]\n");
    text += QStringLiteral("                   [--decoder-hosts DECODER_HOSTS [DECODER_HOSTS ...]]\n");
    if (generation == ProxyGeneration::V091Dev)
        text += QStringLiteral("                   [--decoder-hosts-num DECODER_HOSTS_NUM [DECODER_HOSTS_NUM ...]]\n");
    text += QStringLiteral("                   [--decoder-ports DECODER_PORTS [DECODER_PORTS ...]]\n");
    if (generation == ProxyGeneration::V091Dev)
        text += QStringLiteral("                   [--decoder-ports-inc DECODER_PORTS_INC [DECODER_PORTS_INC ...]]\n");
    text += QStringLiteral("                   [--max-retries MAX_RETRIES] [--retry-delay RETRY_DELAY]\n");
    if (generation == ProxyGeneration::Main)
        text += QStringLiteral("                   [--max-waiting-retries MAX_WAITING_RETRIES]\n"
                               "                   [--waiting-retry-interval WAITING_RETRY_INTERVAL]\n"
                               "                   [--workers WORKERS]\n"
                               "                   [--log-level {DEBUG,INFO,WARNING,ERROR,CRITICAL}]\n");
    text += QStringLiteral("                   [--generation {main,v0.9.1-dev}] [--no-defect-listener-crash]\n"
                           "                   [--no-defect-empty-200] [--backend-timeout SECONDS]\n");
    return text;
}

std::optional<ProxyOptions> ProxyOptions::fromArguments(const QStringList &arguments, QString *error,
                                                        int *exitCode)
{
    QString localError;
    int localExit = 0;
    QString &err = error ? *error : localError;
    int &exit = exitCode ? *exitCode : localExit;
    exit = 2;

    const ProxyGeneration generation = generationOf(arguments);

    const auto parsed = tokenize(arguments, generation, &err);
    if (!parsed)
        return std::nullopt;
    const auto &v = parsed->values;
    if (v.contains(QStringLiteral("--help"))) {
        err = usage(generation);
        exit = 0;
        return std::nullopt;
    }
    if (!parsed->extras.isEmpty()) {
        err = usageError(generation, QStringLiteral("unrecognized arguments: ") + parsed->extras.join(QLatin1Char(' ')));
        return std::nullopt;
    }

    const FlagReader flags{v, generation, err};
    ProxyOptions o;
    o.generation = generation;
    if (v.contains(QStringLiteral("--host")))
        o.host = v.value(QStringLiteral("--host")).first();

    // Converted in the order argparse would meet them is not observable except for the first error;
    // check in declaration order.
    const auto port = flags.ints("--port");
    if (!port)
        return std::nullopt;
    if (*port)
        o.port = (*port)->first();
    const QStringList prefillHosts = v.value(QStringLiteral("--prefiller-hosts"), {QStringLiteral("localhost")});
    const auto prefillHostsNum = flags.ints("--prefiller-hosts-num");
    if (!prefillHostsNum)
        return std::nullopt;
    const auto prefillPorts = flags.ints("--prefiller-ports");
    if (!prefillPorts)
        return std::nullopt;
    const auto prefillPortsInc = flags.ints("--prefiller-ports-inc");
    if (!prefillPortsInc)
        return std::nullopt;
    const QStringList decodeHosts = v.value(QStringLiteral("--decoder-hosts"), {QStringLiteral("localhost")});
    const auto decodeHostsNum = flags.ints("--decoder-hosts-num");
    if (!decodeHostsNum)
        return std::nullopt;
    const auto decodePorts = flags.ints("--decoder-ports");
    if (!decodePorts)
        return std::nullopt;
    const auto decodePortsInc = flags.ints("--decoder-ports-inc");
    if (!decodePortsInc)
        return std::nullopt;
    const auto maxRetries = flags.ints("--max-retries");
    if (!maxRetries)
        return std::nullopt;
    if (*maxRetries)
        o.maxRetries = (*maxRetries)->first();
    const auto retryDelay = flags.floatValue("--retry-delay", o.retryDelay);
    if (!retryDelay)
        return std::nullopt;
    o.retryDelay = *retryDelay;
    const auto maxWaiting = flags.ints("--max-waiting-retries");
    if (!maxWaiting)
        return std::nullopt;
    if (*maxWaiting)
        o.maxWaitingRetries = (*maxWaiting)->first();
    const auto interval = flags.floatValue("--waiting-retry-interval", o.waitingRetryInterval);
    if (!interval)
        return std::nullopt;
    o.waitingRetryInterval = *interval;
    const auto workers = flags.ints("--workers");
    if (!workers)
        return std::nullopt;
    if (*workers)
        o.workers = (*workers)->first();
    const auto logLevel = flags.choice("--log-level", kLogLevels, o.logLevel);
    if (!logLevel)
        return std::nullopt;
    o.logLevel = *logLevel;
    if (!flags.choice("--generation", kGenerations, QStringLiteral("main")))
        return std::nullopt;
    const auto timeout = flags.floatValue("--backend-timeout", 0.0);
    if (!timeout)
        return std::nullopt;
    o.backendTimeout = *timeout;
    o.listenerCrashDefect = !v.contains(QStringLiteral("--no-defect-listener-crash"));
    o.emptyOkOnDecoderFailure = !v.contains(QStringLiteral("--no-defect-empty-200"));

    const QList<int> pPorts = prefillPorts->value_or(QList<int>{8001});
    const QList<int> dPorts = decodePorts->value_or(QList<int>{8002});

    // From here on the real proxy raises ValueError: a traceback and exit status 1.
    exit = 1;
    auto valueError = [&](const QString &message) {
        err = QStringLiteral("Traceback (most recent call last):\n"
                             "  File \"load_balance_proxy_server_example.py\", in <module>\n"
                             "ValueError: ") + message + QLatin1Char('\n');
    };
    if (prefillHosts.size() != pPorts.size()) {
        valueError(QStringLiteral("Number of prefiller hosts must match number of prefiller ports"));
        return std::nullopt;
    }
    if (decodeHosts.size() != dPorts.size()) {
        valueError(QStringLiteral("Number of decoder hosts must match number of decoder ports"));
        return std::nullopt;
    }
    // v0.9.1-dev only; the texts of these two checks are pdsim's wording (the spec records only that
    // the lengths must match).
    const struct {
        const char *role;
        const std::optional<QList<int>> &num;
        const std::optional<QList<int>> &inc;
        qsizetype hosts;
        qsizetype ports;
    } checks[] = {{"prefiller", *prefillHostsNum, *prefillPortsInc, prefillHosts.size(), pPorts.size()},
                  {"decoder", *decodeHostsNum, *decodePortsInc, decodeHosts.size(), dPorts.size()}};
    for (const auto &c : checks) {
        if (c.num && c.num->size() != c.hosts) {
            valueError(QStringLiteral("Number of %1 hosts num must match number of %1 hosts").arg(QLatin1String(c.role)));
            return std::nullopt;
        }
        if (c.inc && c.inc->size() != c.ports) {
            valueError(QStringLiteral("Number of %1 ports inc must match number of %1 ports").arg(QLatin1String(c.role)));
            return std::nullopt;
        }
    }
    o.prefillers = expand(prefillHosts, pPorts, *prefillHostsNum, *prefillPortsInc);
    o.decoders = expand(decodeHosts, dPorts, *decodeHostsNum, *decodePortsInc);

    const QByteArray key = qgetenv("OPENAI_API_KEY");
    if (qEnvironmentVariableIsSet("OPENAI_API_KEY"))
        o.apiKey = QString::fromUtf8(key);
    exit = 0;
    err.clear();
    return o;
}

QStringList ProxyOptions::toArguments() const
{
    QStringList args{QStringLiteral("--host"), host, QStringLiteral("--port"), QString::number(port)};
    auto backends = [&args](const char *hostsFlag, const char *portsFlag, const QList<BackendAddress> &list) {
        args << QLatin1String(hostsFlag);
        for (const BackendAddress &b : list)
            args << b.host;
        args << QLatin1String(portsFlag);
        for (const BackendAddress &b : list)
            args << QString::number(b.port);
    };
    backends("--prefiller-hosts", "--prefiller-ports", prefillers);
    backends("--decoder-hosts", "--decoder-ports", decoders);
    args << QStringLiteral("--max-retries") << QString::number(maxRetries) << QStringLiteral("--retry-delay")
         << QString::number(retryDelay);
    if (generation == ProxyGeneration::Main)
        args << QStringLiteral("--max-waiting-retries") << QString::number(maxWaitingRetries)
             << QStringLiteral("--waiting-retry-interval") << QString::number(waitingRetryInterval);
    return args;
}

} // namespace pd::sim
