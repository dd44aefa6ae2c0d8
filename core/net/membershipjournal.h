// SPDX-License-Identifier: MIT
#pragma once

#include "net/membershipreconciler.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

// The membership table's memory on disk, one JSON file per proxy endpoint, so that a console (or pdctl)
// started again keeps what the proxy's lists cannot tell: an add still WAITING and when it was sent, a
// remove still DRAINING, the last membership read while the proxy was healthy (to restore a proxy that
// restarted meanwhile) and the listener timing read from the running proxy. Written atomically
// (QSaveFile) shortly after the table changes (at once after an add or remove was sent: intentNoted),
// only when its content changed; read once before the
// table starts. A file that cannot be read is reported with file:line and left alone, never
// overwritten until the table has something new to say.
//
// {"format": "pdconsole-membership", "version": 1, "proxy": "http://127.0.0.1:8000", "saved_at": ISO,
//  "timing": {"interval_ms": 10000, "max_retries": 3, "source": "running-proxy", "read_at": ISO},
//  "last_known_good": {"at": ISO, "prefill": ["h:p", ...], "decode": [...]},
//  "pending": [{"id": "h:p", "role": "decode", "fact": "waiting"|"draining", "since": ISO,
//               "add_sent_at": ISO, "note": "..."}]}
namespace pd {

class MembershipJournal final : public QObject {
    Q_OBJECT
public:
    // The file for the proxy at `proxyBase` under `directory` (default: ~/.local/share/pdconsole/membership,
    // shared by the console and pdctl).
    static QString pathFor(const QString &proxyBase, const QString &directory = {});

    MembershipJournal(QString path, QString proxyBase, QObject *parent = nullptr);

    const QString &path() const { return m_path; }
    // The saved snapshot: nullopt without a file (no error) or with one that cannot be used (*error
    // names the file and line, or the field).
    std::optional<MembershipSnapshot> load(QString *error) const;
    // Restores `table` from the file (when there is one) and saves it from then on.
    bool attach(MembershipReconciler *table, QString *error);
    // Writes now when something changed since the last write; false with lastError() on failure.
    bool flush();
    QString lastError() const { return m_error; }

    static QByteArray serialize(const MembershipSnapshot &snapshot, const QString &proxyBase, bool withTimes);
    static std::optional<MembershipSnapshot> parse(const QByteArray &bytes, const QString &where, QString *error);

private:
    QString m_path;
    QString m_proxyBase;
    MembershipReconciler *m_table = nullptr;
    QTimer m_debounce;
    QTimer m_soon; // the next event-loop turn: after intentNoted
    QByteArray m_lastContent; // serialize(..., withTimes = false) of the last write
    QString m_error;
};

} // namespace pd
