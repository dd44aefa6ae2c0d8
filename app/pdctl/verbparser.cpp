// SPDX-License-Identifier: MIT
#include "verbparser.h"

namespace pdctl {

int printUsage(QTextStream &err, const QString &verb, const QString &problem, const char *usage)
{
    err << (problem.isEmpty() ? QString()
                              : QStringLiteral("pdctl ") + verb + QStringLiteral(": ") + problem + QLatin1Char('\n'))
        << usage;
    return kUsageExit;
}

bool parseAction(QCommandLineParser &parser, const QStringList &args, const QStringList &actions)
{
    return parser.parse(QStringList { QStringLiteral("pdctl") } + args) && parser.positionalArguments().size() == 1
        && actions.contains(parser.positionalArguments().first()) && parser.isSet(QStringLiteral("profile"));
}

VerbParser::VerbParser(QString verb, QString usage)
    : m_verb(std::move(verb))
    , m_usage(std::move(usage))
{
    // "-n 5" and "--to 3" alike; a single dash never bundles letters.
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
}

VerbParser &VerbParser::option(const QString &name, const QString &valueName, const QString &defaultValue)
{
    m_parser.addOption(QCommandLineOption(name, QString(), valueName, defaultValue));
    return *this;
}

VerbParser &VerbParser::option(const QStringList &names, const QString &valueName)
{
    m_parser.addOption(QCommandLineOption(names, QString(), valueName));
    return *this;
}

VerbParser &VerbParser::flag(const QString &name)
{
    m_parser.addOption(QCommandLineOption(name));
    return *this;
}

VerbParser &VerbParser::required(const QString &name, const QString &valueName)
{
    m_required.append({ name, valueName });
    return option(name, valueName);
}

bool VerbParser::parse(const QStringList &args, QTextStream &err, int positionals)
{
    if (!m_parser.parse(QStringList{QStringLiteral("pdctl")} + args)) {
        usageError(err, m_parser.errorText());
        return false;
    }
    const qsizetype got = m_parser.positionalArguments().size();
    if (positionals >= 0 && got != positionals) {
        usageError(err, got > positionals ? QStringLiteral("unexpected argument \"%1\"").arg(m_parser.positionalArguments().at(positionals))
                                          : QStringLiteral("missing argument"));
        return false;
    }
    for (const auto &[name, valueName] : std::as_const(m_required)) {
        if (m_parser.value(name).isEmpty()) {
            usageError(err, QStringLiteral("--%1 %2 is required").arg(name, valueName));
            return false;
        }
    }
    return true;
}

int VerbParser::usageError(QTextStream &err, const QString &problem) const
{
    err << "pdctl " << m_verb << ": " << problem << '\n' << m_usage;
    if (!m_usage.endsWith(QLatin1Char('\n')))
        err << '\n';
    return kUsageExit;
}

} // namespace pdctl
