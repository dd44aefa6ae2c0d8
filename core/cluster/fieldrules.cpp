// SPDX-License-Identifier: MIT
#include "cluster/fieldrules.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>

namespace pd::fieldrules {

namespace {

// A field's complaint, read after what the field is ("node name \"a b\" contains ' ', ...").
struct FieldRulesTr {
    Q_DECLARE_TR_FUNCTIONS(pd::ProfileValidator)
};

QString describeBad(const QString &value, const QRegularExpression &allowed)
{
    for (const QChar c : value) {
        if (!allowed.match(QString(c)).hasMatch()) {
            if (c == QLatin1Char('\n'))
                return FieldRulesTr::tr("contains a newline");
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                return FieldRulesTr::tr("contains the control character U+%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            if (c.unicode() > 0x7f)
                return FieldRulesTr::tr("contains the non-ASCII character '%1'").arg(c);
            return FieldRulesTr::tr("contains '%1', which a shell would interpret").arg(c);
        }
    }
    return QString();
}

} // namespace

QString checkName(const QString &value)
{
    static const QRegularExpression one(QStringLiteral("^[A-Za-z0-9._-]$"));
    if (value.isEmpty())
        return FieldRulesTr::tr("is empty");
    if (value.size() > 63)
        return FieldRulesTr::tr("is longer than 63 characters");
    if (const QString bad = describeBad(value, one); !bad.isEmpty())
        return FieldRulesTr::tr("%1 (use letters, digits, '.', '_' and '-')").arg(bad);
    if (value.startsWith(QLatin1Char('-')) || value.startsWith(QLatin1Char('.')))
        return FieldRulesTr::tr("must not start with '-' or '.'");
    return QString();
}

QString checkHost(const QString &value)
{
    if (value.isEmpty())
        return FieldRulesTr::tr("is empty");
    // QHostAddress ignores surrounding whitespace ("192.0.0.1\n" parses): refuse it before asking it.
    static const QRegularExpression ipChar(QStringLiteral("^[A-Za-z0-9.:%_-]$"));
    if (const QString bad = describeBad(value, ipChar); !bad.isEmpty())
        return FieldRulesTr::tr("%1 (expected an IP address or a host name)").arg(bad);
    QHostAddress address;
    if (address.setAddress(value))
        return QString();
    static const QRegularExpression one(QStringLiteral("^[A-Za-z0-9.-]$"));
    if (const QString bad = describeBad(value, one); !bad.isEmpty())
        return FieldRulesTr::tr("%1 (expected an IP address or a host name)").arg(bad);
    static const QRegularExpression dns(
        QStringLiteral("^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"));
    if (value.size() > 253 || !dns.match(value).hasMatch())
        return FieldRulesTr::tr("is not a valid IP address or host name");
    static const QRegularExpression dottedNumbers(QStringLiteral("^[0-9.]+$"));
    if (dottedNumbers.match(value).hasMatch())
        return FieldRulesTr::tr("is not a valid IPv4 address");
    return QString();
}

QString checkUser(const QString &value)
{
    static const QRegularExpression one(QStringLiteral("^[A-Za-z0-9._-]$"));
    if (value.isEmpty())
        return FieldRulesTr::tr("is empty");
    if (value.size() > 32)
        return FieldRulesTr::tr("is longer than 32 characters");
    if (const QString bad = describeBad(value, one); !bad.isEmpty())
        return bad;
    if (value.startsWith(QLatin1Char('-')))
        return FieldRulesTr::tr("must not start with '-'");
    return QString();
}

QString checkNic(const QString &value)
{
    static const QRegularExpression one(QStringLiteral("^[A-Za-z0-9._:-]$"));
    if (value.isEmpty())
        return QString(); // optional
    if (value.size() > 15)
        return FieldRulesTr::tr("is longer than 15 characters (the kernel's limit for interface names)");
    if (const QString bad = describeBad(value, one); !bad.isEmpty())
        return bad;
    if (value.startsWith(QLatin1Char('-')))
        return FieldRulesTr::tr("must not start with '-'");
    return QString();
}

QString checkPath(const QString &value)
{
    static const QRegularExpression one(QStringLiteral("^[A-Za-z0-9._/~+@%=,:-]$"));
    if (value.isEmpty())
        return FieldRulesTr::tr("is empty");
    if (value.size() > 4096)
        return FieldRulesTr::tr("is longer than 4096 characters");
    if (const QString bad = describeBad(value, one); !bad.isEmpty())
        return FieldRulesTr::tr("%1 (paths may hold letters, digits and . _ / ~ + @ % = , : -)").arg(bad);
    if (value.startsWith(QLatin1Char('-')))
        return FieldRulesTr::tr("must not start with '-'");
    if (value.contains(QLatin1Char('~')) && !value.startsWith(QLatin1String("~/")) && value != QLatin1String("~"))
        return FieldRulesTr::tr("may use '~' only as its first character ('~/...')");
    return QString();
}

QString checkEnvName(const QString &value)
{
    // anchoredPattern: a plain "$" would also match before a trailing newline ("NAME\n" passed).
    static const QRegularExpression name(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*")));
    if (!name.match(value).hasMatch())
        return FieldRulesTr::tr("is not a valid environment variable name");
    return QString();
}

QString checkApiKeyEnvName(const QString &value)
{
    if (const QString bad = checkEnvName(value); !bad.isEmpty())
        return bad;
    static const QRegularExpression keyName(QRegularExpression::anchoredPattern(QStringLiteral("(?:[A-Za-z0-9_]*_)?(?:API_KEY|TOKEN)")),
                                            QRegularExpression::CaseInsensitiveOption);
    if (!keyName.match(value).hasMatch())
        return FieldRulesTr::tr("is not the name of an API key or token variable (*_API_KEY, *_TOKEN): the console would send "
                      "its value to the proxy and engines as a bearer token");
    return QString();
}

QString checkFreeText(const QString &value)
{
    for (const QChar c : value) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            return FieldRulesTr::tr("contains a line break");
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return FieldRulesTr::tr("contains the control character U+%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
    }
    return QString();
}

QString checkJumpHost(const QString &value)
{
    if (value.isEmpty())
        return QString();
    QString rest = value;
    const qsizetype at = rest.indexOf(QLatin1Char('@'));
    if (at >= 0) {
        if (const QString bad = checkUser(rest.left(at)); !bad.isEmpty())
            return FieldRulesTr::tr("user %1").arg(bad);
        rest = rest.mid(at + 1);
    }
    const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0 && !rest.startsWith(QLatin1Char('['))) {
        bool ok = false;
        const int port = rest.mid(colon + 1).toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return FieldRulesTr::tr("has an invalid port");
        rest = rest.left(colon);
    }
    if (const QString bad = checkHost(rest); !bad.isEmpty())
        return FieldRulesTr::tr("host %1").arg(bad);
    return QString();
}

QString checkInstance(const QString &value)
{
    const qsizetype colon = value.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return FieldRulesTr::tr("is not host:port");
    bool ok = false;
    const int port = value.mid(colon + 1).toInt(&ok);
    if (!ok || port < 1 || port > 65535)
        return FieldRulesTr::tr("has an invalid port");
    if (const QString bad = checkHost(value.left(colon)); !bad.isEmpty())
        return FieldRulesTr::tr("host %1").arg(bad);
    return QString();
}

} // namespace pd::fieldrules
