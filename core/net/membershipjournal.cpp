// SPDX-License-Identifier: MIT
#include "net/membershipjournal.h"

#include "cluster/strictjson.h"
#include "util/proxyfilename.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace pd {

namespace {

using ojson = nlohmann::ordered_json;

constexpr char kFormat[] = "pdconsole-membership";
constexpr int kVersion = 1;
constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

std::string iso(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs).toStdString() : std::string();
}

ojson list(const QStringList &ids)
{
    ojson a = ojson::array();
    for (const QString &id : ids)
        a.push_back(id.toStdString());
    return a;
}

// Reading with the place of the first problem.
struct Reader {
    QString where;
    QString error;

    bool fail(const QString &field, const QString &why)
    {
        if (error.isEmpty())
            error = QStringLiteral("%1: %2: %3").arg(where, field, why);
        return false;
    }
    bool string(const ojson &o, const char *name, const QString &field, QString *out, bool required = false)
    {
        const auto it = o.find(name);
        if (it == o.end())
            return !required || fail(field, QStringLiteral("missing"));
        if (!it->is_string())
            return fail(field, QStringLiteral("not a string"));
        *out = QString::fromStdString(it->get<std::string>());
        return true;
    }
    bool time(const ojson &o, const char *name, const QString &field, QDateTime *out)
    {
        QString text;
        if (!string(o, name, field, &text))
            return false;
        if (text.isEmpty())
            return true;
        *out = QDateTime::fromString(text, Qt::ISODateWithMs);
        return out->isValid() || fail(field, QStringLiteral("not an ISO 8601 time: %1").arg(text));
    }
    bool integer(const ojson &o, const char *name, const QString &field, int *out, int min, int max)
    {
        const auto it = o.find(name);
        if (it == o.end())
            return fail(field, QStringLiteral("missing"));
        if (!it->is_number_integer() || it->get<qint64>() < min || it->get<qint64>() > max)
            return fail(field, QStringLiteral("not an integer from %1 to %2").arg(min).arg(max));
        *out = int(it->get<qint64>());
        return true;
    }
    bool ids(const ojson &o, const char *name, const QString &field, QStringList *out)
    {
        const auto it = o.find(name);
        if (it == o.end() || !it->is_array())
            return fail(field, QStringLiteral("not a list of instances"));
        for (size_t i = 0; i < it->size(); ++i) {
            if (!(*it)[i].is_string())
                return fail(QStringLiteral("%1/%2").arg(field).arg(i), QStringLiteral("not a string"));
            out->append(QString::fromStdString((*it)[i].get<std::string>()));
        }
        return true;
    }
};

} // namespace

QString MembershipJournal::pathFor(const QString &proxyBase, const QString &directory)
{
    const QString dir = directory.isEmpty()
                            ? QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
                                    + QStringLiteral("/pdconsole/membership")
                            : directory;
    return dir + QLatin1Char('/') + perProxyFileName(proxyBase);
}

MembershipJournal::MembershipJournal(QString path, QString proxyBase, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_proxyBase(std::move(proxyBase))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(200);
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, [this] {
        if (!flush())
            qWarning("%s", qPrintable(m_error));
    });
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        if (!flush())
            qWarning("%s", qPrintable(m_error));
    });
}

QByteArray MembershipJournal::serialize(const MembershipSnapshot &s, const QString &proxyBase, bool withTimes)
{
    ojson root;
    root["format"] = kFormat;
    root["version"] = kVersion;
    root["proxy"] = proxyBase.toStdString();
    if (withTimes)
        root["saved_at"] = iso(QDateTime::currentDateTimeUtc());
    ojson timing;
    timing["interval_ms"] = s.timing.intervalMs;
    timing["max_retries"] = s.timing.maxRetries;
    timing["source"] = listenerTimingSourceName(s.timing.source).toStdString();
    if (withTimes)
        timing["read_at"] = iso(s.timing.readAt);
    root["timing"] = timing;
    if (s.lastKnownGood) {
        ojson good;
        if (withTimes)
            good["at"] = iso(s.lastKnownGoodAt);
        good["prefill"] = list(s.lastKnownGood->prefill);
        good["decode"] = list(s.lastKnownGood->decode);
        root["last_known_good"] = good;
    }
    ojson pending = ojson::array();
    for (const InstanceRecord &r : s.pending) {
        ojson p;
        p["id"] = r.id.toStdString();
        p["role"] = roleName(r.role).toStdString();
        p["fact"] = membershipFactName(r.fact).toStdString();
        p["since"] = iso(r.since);
        p["add_sent_at"] = iso(r.addSentAt);
        p["note"] = r.note.toStdString();
        pending.push_back(p);
    }
    root["pending"] = pending;
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

std::optional<MembershipSnapshot> MembershipJournal::parse(const QByteArray &bytes, const QString &where, QString *error)
{
    const StrictJsonResult parsed = parseStrictJson(bytes);
    auto refuse = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!parsed.ok)
        return refuse(parsed.pointer.isEmpty()
                          ? QStringLiteral("%1:%2:%3: %4").arg(where).arg(parsed.line).arg(parsed.column).arg(parsed.message)
                          : QStringLiteral("%1: %2: %3").arg(where, parsed.pointer, parsed.message));
    const ojson &root = parsed.value;
    Reader r{where, {}};
    QString format;
    int version = 0;
    if (!root.is_object())
        return refuse(where + QStringLiteral(": not a JSON object"));
    if (!r.string(root, "format", QStringLiteral("/format"), &format, true) || format != QLatin1String(kFormat))
        return refuse(r.error.isEmpty() ? where + QStringLiteral(": /format: not a pdconsole membership journal") : r.error);
    if (!r.integer(root, "version", QStringLiteral("/version"), &version, kVersion, kVersion))
        return refuse(r.error);

    MembershipSnapshot s;
    const auto timing = root.find("timing");
    if (timing == root.end() || !timing->is_object())
        return refuse(where + QStringLiteral(": /timing: missing"));
    QString source;
    if (!r.integer(*timing, "interval_ms", QStringLiteral("/timing/interval_ms"), &s.timing.intervalMs, 1, 86400000)
        || !r.integer(*timing, "max_retries", QStringLiteral("/timing/max_retries"), &s.timing.maxRetries, 0, 1000000)
        || !r.string(*timing, "source", QStringLiteral("/timing/source"), &source, true)
        || !r.time(*timing, "read_at", QStringLiteral("/timing/read_at"), &s.timing.readAt))
        return refuse(r.error);
    const auto src = listenerTimingSourceFromName(source);
    if (!src)
        return refuse(QStringLiteral("%1: /timing/source: unknown source \"%2\"").arg(where, source));
    s.timing.source = *src;

    if (const auto good = root.find("last_known_good"); good != root.end()) {
        if (!good->is_object())
            return refuse(where + QStringLiteral(": /last_known_good: not an object"));
        ProxyLists lists;
        if (!r.ids(*good, "prefill", QStringLiteral("/last_known_good/prefill"), &lists.prefill)
            || !r.ids(*good, "decode", QStringLiteral("/last_known_good/decode"), &lists.decode)
            || !r.time(*good, "at", QStringLiteral("/last_known_good/at"), &s.lastKnownGoodAt))
            return refuse(r.error);
        s.lastKnownGood = lists;
    }
    const auto pending = root.find("pending");
    if (pending == root.end() || !pending->is_array())
        return refuse(where + QStringLiteral(": /pending: not a list"));
    for (size_t i = 0; i < pending->size(); ++i) {
        const ojson &p = (*pending)[i];
        const QString at = QStringLiteral("/pending/%1").arg(i);
        if (!p.is_object())
            return refuse(QStringLiteral("%1: %2: not an object").arg(where, at));
        InstanceRecord rec;
        QString role, fact;
        if (!r.string(p, "id", at + QStringLiteral("/id"), &rec.id, true) || !r.string(p, "role", at + QStringLiteral("/role"), &role, true)
            || !r.string(p, "fact", at + QStringLiteral("/fact"), &fact, true) || !r.time(p, "since", at + QStringLiteral("/since"), &rec.since)
            || !r.time(p, "add_sent_at", at + QStringLiteral("/add_sent_at"), &rec.addSentAt)
            || !r.string(p, "note", at + QStringLiteral("/note"), &rec.note))
            return refuse(r.error);
        if (role == roleName(Role::Prefill))
            rec.role = Role::Prefill;
        else if (role == roleName(Role::Decode))
            rec.role = Role::Decode;
        else
            return refuse(QStringLiteral("%1: %2/role: \"%3\" is neither prefill nor decode").arg(where, at, role));
        if (fact == membershipFactName(MembershipFact::Waiting))
            rec.fact = MembershipFact::Waiting;
        else if (fact == membershipFactName(MembershipFact::Draining))
            rec.fact = MembershipFact::Draining;
        else
            return refuse(QStringLiteral("%1: %2/fact: \"%3\" is not a pending fact (waiting, draining)").arg(where, at, fact));
        if (rec.id.isEmpty())
            return refuse(QStringLiteral("%1: %2/id: empty").arg(where, at));
        s.pending.append(rec);
    }
    return s;
}

std::optional<MembershipSnapshot> MembershipJournal::load(QString *error) const
{
    QFile file(m_path);
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxFileBytes) {
        if (error)
            *error = QStringLiteral("%1: %2 bytes, more than a membership journal can hold").arg(m_path).arg(file.size());
        return std::nullopt;
    }
    return parse(file.readAll(), m_path, error);
}

bool MembershipJournal::attach(MembershipReconciler *table, QString *error)
{
    m_table = table;
    QString problem;
    bool ok = true;
    if (const auto saved = load(&problem))
        table->restore(*saved);
    else if (!problem.isEmpty())
        ok = false;
    if (error)
        *error = problem;
    // The content as restored is what the file says already: nothing to write until it changes.
    m_lastContent = ok && QFile::exists(m_path) ? serialize(table->snapshot(), m_proxyBase, false) : QByteArray();
    connect(table, &MembershipReconciler::snapshotChanged, this, [this] { m_debounce.start(); });
    // An add or a remove this process just sent is written at once: killed a moment later (kill -9, a
    // crash), the next run must still know the proxy drains it, or it would read "serving" for an
    // instance that gets no traffic.
    // (Once per event-loop turn: a group's 64 removes noted in one loop are one write.)
    connect(table, &MembershipReconciler::intentNoted, this, [this] {
        if (!m_soon.isActive())
            m_soon.start();
    });
    connect(table, &QObject::destroyed, this, [this] { m_table = nullptr; });
    return ok;
}

bool MembershipJournal::flush()
{
    m_debounce.stop();
    m_soon.stop();
    if (!m_table)
        return true;
    const MembershipSnapshot s = m_table->snapshot();
    // No file and nothing pending or read yet: nothing worth a file.
    if (s.pending.isEmpty() && !s.lastKnownGood && !QFile::exists(m_path))
        return true;
    const QByteArray content = serialize(s, m_proxyBase, false);
    if (content == m_lastContent)
        return true;
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("%1: %2").arg(m_path, file.errorString());
        return false;
    }
    file.write(serialize(s, m_proxyBase, true));
    if (!file.commit()) {
        m_error = QStringLiteral("%1: %2").arg(m_path, file.errorString());
        return false;
    }
    m_lastContent = content;
    m_error.clear();
    return true;
}

} // namespace pd
