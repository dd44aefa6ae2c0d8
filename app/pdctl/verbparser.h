// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineParser>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace pdctl {

// The one argument parser of every pdctl verb: QCommandLineParser over the verb's own options, so a
// typo (--jsn) or an option without its value is refused, never ignored, and every usage error reads
// the same: "pdctl VERB: <problem>" then the verb's usage line, exit 2 (kUsageExit).
constexpr int kUsageExit = 2;

// For the verbs that parse with their own QCommandLineParser: "pdctl VERB: problem" (when there is
// one), then the verb's usage; returns kUsageExit.
int printUsage(QTextStream &err, const QString &verb, const QString &problem, const char *usage);

// Whether `args` parse, with one of `actions` as the only positional argument and --profile set.
bool parseAction(QCommandLineParser &parser, const QStringList &args, const QStringList &actions);

class VerbParser {
public:
    // verb: "status", "profile import", ...; usage: its usage text, starting "usage: pdctl ...".
    VerbParser(QString verb, QString usage);

    VerbParser &option(const QString &name, const QString &valueName, const QString &defaultValue = {});
    VerbParser &option(const QStringList &names, const QString &valueName);
    VerbParser &flag(const QString &name);
    // An option the verb cannot do without: parse() refuses a command line without its value
    // ("--profile FILE is required").
    VerbParser &required(const QString &name, const QString &valueName);

    // Parses; on a malformed command line prints the problem and the usage and returns false.
    // `positionals`: how many positional arguments the verb takes (-1: any number).
    bool parse(const QStringList &args, QTextStream &err, int positionals = 0);
    // Prints "pdctl VERB: problem" and the usage; returns kUsageExit.
    int usageError(QTextStream &err, const QString &problem) const;

    QString value(const QString &name) const { return m_parser.value(name); }
    QStringList values(const QString &name) const { return m_parser.values(name); }
    bool isSet(const QString &name) const { return m_parser.isSet(name); }
    QStringList positionalArguments() const { return m_parser.positionalArguments(); }

private:
    QString m_verb;
    QString m_usage;
    QCommandLineParser m_parser;
    QList<QPair<QString, QString>> m_required; // name, value name
};

} // namespace pdctl
