// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// pdconsole's own known_hosts check, in OpenSSH's file format, instead of libssh's:
// - every line is read whatever its length (libssh stops reading at a line longer than its buffer, so
//   a changed key recorded after such a line looked merely "unknown");
// - `@revoked` lines refuse their key for every host (OpenSSH also matches their host patterns: being
//   stricter cannot let a revoked key through); `@cert-authority` lines are not host keys and are skipped;
// - host patterns: plain names, `[host]:port` for ports other than 22, `*` / `?` wildcards, `!` negation,
//   and hashed names (`|1|salt|hmac`, HMAC-SHA1 of the name as ssh-keygen -H writes it);
// - a new entry is written atomically (QSaveFile): the old lines are kept byte for byte and a failed
//   write leaves the old file as it was.
// Pure file logic: no libssh, no network. SshConnection asks it with the key the server presented.
namespace pd {

enum class KnownHostVerdict {
    Known,     // an entry for this host holds this key
    NotFound,  // no entry for this host (the operator may be asked)
    Changed,   // entries of this key type for this host, none with this key: refused
    Other,     // entries for this host only of other key types: refused
    Revoked,   // a @revoked line holds this key: refused
    Error,     // a file could not be read (not a missing file: that is NotFound)
};

struct KnownHostCheck {
    KnownHostVerdict verdict = KnownHostVerdict::NotFound;
    QString file;    // where the deciding line is
    int line = 0;    // its 1-based number (0: none)
    QString error;   // when verdict == Error
};

// "host" for port 22, "[host]:port" otherwise: the name a known_hosts line records.
QString knownHostName(const QString &host, int port);

// keyType: "ssh-ed25519", ...; keyBase64: the key blob as the .pub file holds it. Files are read in
// order (the user's, then the global one); a missing file counts as empty.
KnownHostCheck checkKnownHost(const QStringList &files, const QString &host, int port, const QByteArray &keyType,
                              const QByteArray &keyBase64);

// Appends "name type key" to `file`, atomically; creates the file (mode 0600) and its directory.
bool addKnownHost(const QString &file, const QString &host, int port, const QByteArray &keyType,
                  const QByteArray &keyBase64, QString *error);

// One host pattern list ("a,b,!c", or a hashed "|1|...") against a name; exposed for tests.
bool knownHostPatternMatches(const QByteArray &patterns, const QString &name);

} // namespace pd
