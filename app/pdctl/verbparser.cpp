// SPDX-License-Identifier: MIT
#include "verbparser.h"

namespace pdctl {

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
