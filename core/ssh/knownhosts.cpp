// SPDX-License-Identifier: MIT
#include "ssh/knownhosts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QSaveFile>

namespace pd {

namespace {

// OpenSSH's glob: '*' any run, '?' one character; names compare without case. Iterative, backtracking
// only to the last '*': a pattern of many stars costs O(pattern x name), never exponential time.
bool globMatches(const QByteArray &pattern, const QByteArray &text)
{
    const auto same = [](char a, char b) { return QChar::toLower(uint(uchar(a))) == QChar::toLower(uint(uchar(b))); };
    qsizetype p = 0, t = 0, star = -1, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern.at(p) == '*') {
            star = p++;
            resume = t;
        } else if (p < pattern.size() && (pattern.at(p) == '?' || same(pattern.at(p), text.at(t)))) {
            ++p;
            ++t;
        } else if (star >= 0) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern.at(p) == '*')
        ++p;
    return p == pattern.size();
}

bool hashedMatches(const QByteArray &hashed, const QString &name)
{
    // |1|base64(salt)|base64(HMAC-SHA1(salt, name))
    const QList<QByteArray> parts = hashed.split('|');
    if (parts.size() != 4 || !parts.at(0).isEmpty() || parts.at(1) != "1")
        return false;
    const QByteArray salt = QByteArray::fromBase64(parts.at(2));
    const QByteArray expected = QByteArray::fromBase64(parts.at(3));
    if (salt.isEmpty() || expected.isEmpty())
        return false;
    return QMessageAuthenticationCode::hash(name.toUtf8(), salt, QCryptographicHash::Sha1) == expected;
}

struct KnownHostLine {
    bool revoked = false;
    bool certAuthority = false;
    QByteArray patterns;
    QByteArray type;
    QByteArray key;
    bool valid = false;
};

KnownHostLine parseLine(QByteArray line)
{
    KnownHostLine e;
    line = line.trimmed();
    if (line.isEmpty() || line.startsWith('#'))
        return e;
    QList<QByteArray> fields = line.simplified().split(' ');
    if (fields.first().startsWith('@')) {
        const QByteArray marker = fields.takeFirst();
        e.revoked = marker == "@revoked";
        e.certAuthority = marker == "@cert-authority";
        if (!e.revoked && !e.certAuthority)
            return e; // an unknown marker: not a usable line
    }
    if (fields.size() < 3)
        return e;
    e.patterns = fields.at(0);
    e.type = fields.at(1);
    e.key = fields.at(2);
    e.valid = true;
    return e;
}

} // namespace

QString knownHostName(const QString &host, int port)
{
    return port == 22 ? host : QStringLiteral("[%1]:%2").arg(host).arg(port);
}

bool knownHostPatternMatches(const QByteArray &patterns, const QString &name)
{
    if (patterns.startsWith('|'))
        return hashedMatches(patterns, name);
    const QByteArray text = name.toUtf8();
    bool matched = false;
    for (const QByteArray &pattern : patterns.split(',')) {
        if (pattern.startsWith('!')) {
            if (globMatches(pattern.mid(1), text))
                return false; // a negated match rules the whole line out
        } else if (!pattern.isEmpty() && globMatches(pattern, text)) {
            matched = true;
        }
    }
    return matched;
}

KnownHostCheck checkKnownHost(const QStringList &files, const QString &host, int port, const QByteArray &keyType,
                              const QByteArray &keyBase64)
{
    const QString name = knownHostName(host, port);
    KnownHostCheck known, changed, other;
    for (const QString &path : files) {
        if (path.isEmpty() || !QFileInfo::exists(path))
            continue;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            KnownHostCheck failed;
            failed.verdict = KnownHostVerdict::Error;
            failed.file = path;
            failed.error = file.errorString();
            return failed;
        }
        int number = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine(); // no length limit: a long line is read whole
            ++number;
            const KnownHostLine e = parseLine(line);
            if (!e.valid || e.certAuthority)
                continue;
            if (e.revoked) {
                if (e.type == keyType && e.key == keyBase64)
                    return {KnownHostVerdict::Revoked, path, number, {}};
                continue;
            }
            if (!knownHostPatternMatches(e.patterns, name))
                continue;
            if (e.type == keyType && e.key == keyBase64) {
                if (known.line == 0)
                    known = {KnownHostVerdict::Known, path, number, {}};
            } else if (e.type == keyType) {
                if (changed.line == 0)
                    changed = {KnownHostVerdict::Changed, path, number, {}};
            } else if (other.line == 0) {
                other = {KnownHostVerdict::Other, path, number, {}};
            }
        }
    }
    // A matching entry wins over stale ones (OpenSSH accepts when any line holds the key); a revoked key
    // was refused above wherever its line is.
    if (known.line > 0)
        return known;
    if (changed.line > 0)
        return changed;
    if (other.line > 0)
        return other;
    return {};
}

bool addKnownHost(const QString &path, const QString &host, int port, const QByteArray &keyType,
                  const QByteArray &keyBase64, QString *error)
{
    QByteArray content;
    QFile old(path);
    if (old.exists()) {
        if (!old.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read %1: %2").arg(path, old.errorString());
            return false;
        }
        content = old.readAll();
        old.close();
        if (!content.isEmpty() && !content.endsWith('\n'))
            content += '\n';
    } else if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = QStringLiteral("cannot create the directory of %1").arg(path);
        return false;
    }
    content += knownHostName(host, port).toUtf8() + ' ' + keyType + ' ' + keyBase64 + '\n';
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
        return false;
    }
    if (!old.exists())
        out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (out.write(content) != content.size() || !out.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
        return false;
    }
    return true;
}

} // namespace pd
