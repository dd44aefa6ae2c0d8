// SPDX-License-Identifier: MIT
#include "ops/operationjournal.h"

#include "cluster/strictjson.h"
#include "util/proxyfilename.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QSysInfo>

#include <csignal>
#include <unistd.h>

namespace pd {

namespace {

using ojson = nlohmann::ordered_json;

constexpr char kFormat[] = "pdconsole-operations";
constexpr int kVersion = 1;
constexpr qint64 kMaxFileBytes = 4 * 1024 * 1024;

std::string iso(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs).toStdString() : std::string();
}

ojson strings(const QStringList &list)
{
    ojson a = ojson::array();
    for (const QString &s : list)
        a.push_back(s.toStdString());
    return a;
}

// Field 22 of /proc/PID/stat (the process's start time in clock ticks since boot); 0 when unknown, -1
// when the process has ended and waits to be reaped (a zombie: killed, its parent not told yet).
qint64 startTicksOf(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    // fields[0] is field 3 (state), so field 22 is fields[19].
    if (!fields.isEmpty() && (fields.at(0) == "Z" || fields.at(0) == "X"))
        return -1;
    return fields.size() > 19 ? fields.at(19).toLongLong() : 0;
}

struct Reader {
    QString where;
    QString error;

    bool fail(const QString &field, const QString &why)
    {
        if (error.isEmpty())
            error = QStringLiteral("%1: %2: %3").arg(where, field, why);
        return false;
    }
    bool string(const ojson &o, const char *name, const QString &field, QString *out, bool required)
    {
        const auto it = o.find(name);
        if (it == o.end())
            return !required || fail(field + QLatin1Char('/') + QLatin1String(name), QStringLiteral("missing"));
        if (!it->is_string())
            return fail(field + QLatin1Char('/') + QLatin1String(name), QStringLiteral("not a string"));
        *out = QString::fromStdString(it->get<std::string>());
        return true;
    }
    bool time(const ojson &o, const char *name, const QString &field, QDateTime *out)
    {
        QString text;
        if (!string(o, name, field, &text, false))
            return false;
        if (text.isEmpty())
            return true;
        *out = QDateTime::fromString(text, Qt::ISODateWithMs);
        return out->isValid()
            || fail(
                field + QLatin1Char('/') + QLatin1String(name), QStringLiteral("not an ISO 8601 time: %1").arg(text));
    }
    bool list(const ojson &o, const char *name, const QString &field, QStringList *out)
    {
        const auto it = o.find(name);
        if (it == o.end())
            return true;
        const QString at = field + QLatin1Char('/') + QLatin1String(name);
        if (!it->is_array())
            return fail(at, QStringLiteral("not a list"));
        for (size_t i = 0; i < it->size(); ++i) {
            if (!(*it)[i].is_string())
                return fail(QStringLiteral("%1/%2").arg(at).arg(i), QStringLiteral("not a string"));
            out->append(QString::fromStdString((*it)[i].get<std::string>()));
        }
        return true;
    }
    bool integer(const ojson &o, const char *name, const QString &field, qint64 *out)
    {
        const auto it = o.find(name);
        if (it == o.end())
            return true;
        if (!it->is_number_integer())
            return fail(field + QLatin1Char('/') + QLatin1String(name), QStringLiteral("not an integer"));
        *out = it->get<qint64>();
        return true;
    }
};

} // namespace

OperationOwner OperationOwner::self()
{
    OperationOwner o;
    o.host = QSysInfo::machineHostName();
    o.pid = qint64(::getpid());
    o.program = QCoreApplication::applicationName();
    o.startTicks = startTicksOf(o.pid);
    return o;
}

bool OperationOwner::isAlive() const
{
    if (host != QSysInfo::machineHostName())
        return true;
    if (pid <= 0)
        return false;
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
        return false;
    // The pid answers: the same process only if it started at the same tick (pids are reused).
    const qint64 ticks = startTicksOf(pid);
    if (ticks < 0)
        return false;
    return startTicks == 0 || ticks == 0 || ticks == startTicks;
}

QString OperationOwner::describe() const
{
    return QStringLiteral("%1 (pid %2 on %3)")
        .arg(program.isEmpty() ? QStringLiteral("?") : program)
        .arg(pid)
        .arg(host);
}

QString OperationJournal::pathFor(const QString &proxyBase, const QString &directory)
{
    const QString dir = directory.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
            + QStringLiteral("/pdconsole/operations")
                                            : directory;
    return dir + QLatin1Char('/') + perProxyFileName(proxyBase);
}

OperationJournal::OperationJournal(QString path, QString proxyBase)
    : m_path(std::move(path))
    , m_proxyBase(std::move(proxyBase))
{
}

QByteArray OperationJournal::serialize(const QList<OperationRecord> &records, const QString &proxyBase)
{
    ojson root = ojson::object();
    root["format"] = kFormat;
    root["version"] = kVersion;
    root["proxy"] = proxyBase.toStdString();
    ojson ops = ojson::array();
    for (const OperationRecord &r : records) {
        ojson o = ojson::object();
        o["id"] = r.id.toStdString();
        o["kind"] = r.kind.toStdString();
        o["role"] = roleName(r.role).toStdString();
        o["unit"] = r.unit.toStdString();
        o["engines"] = strings(r.engines);
        o["stops_engines"] = r.stopsEngines;
        o["started"] = iso(r.started);
        o["updated"] = iso(r.updated);
        o["step"] = r.step.toStdString();
        o["step_label"] = r.stepLabel.toStdString();
        o["step_status"] = r.stepStatus.toStdString();
        o["reached"] = strings(r.reached);
        o["owner"] = ojson { { "host", r.owner.host.toStdString() }, { "pid", r.owner.pid },
            { "program", r.owner.program.toStdString() }, { "start_ticks", r.owner.startTicks } };
        ops.push_back(std::move(o));
    }
    root["operations"] = std::move(ops);
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

std::optional<QList<OperationRecord>> OperationJournal::parse(
    const QByteArray &bytes, const QString &where, QString *error)
{
    auto refuse = [error](const QString &why) -> std::optional<QList<OperationRecord>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const StrictJsonResult parsed = parseStrictJson(bytes);
    if (!parsed.ok)
        return refuse(parsed.pointer.isEmpty()
                ? QStringLiteral("%1:%2:%3: %4").arg(where).arg(parsed.line).arg(parsed.column).arg(parsed.message)
                : QStringLiteral("%1: %2: %3").arg(where, parsed.pointer, parsed.message));
    const ojson &root = parsed.value;
    if (!root.is_object())
        return refuse(QStringLiteral("%1: not a JSON object").arg(where));
    Reader r { where, {} };
    QString format;
    if (!r.string(root, "format", QString(), &format, true))
        return refuse(r.error);
    if (format != QLatin1String(kFormat))
        return refuse(QStringLiteral("%1: /format: \"%2\", not \"%3\"").arg(where, format, QLatin1String(kFormat)));
    qint64 version = 0;
    if (!r.integer(root, "version", QString(), &version))
        return refuse(r.error);
    if (version != kVersion)
        return refuse(QStringLiteral("%1: /version: %2 is not a version this build reads (%3)")
                          .arg(where)
                          .arg(version)
                          .arg(kVersion));
    QList<OperationRecord> records;
    const auto ops = root.find("operations");
    if (ops == root.end())
        return records;
    if (!ops->is_array())
        return refuse(QStringLiteral("%1: /operations: not a list").arg(where));
    for (size_t i = 0; i < ops->size(); ++i) {
        const QString field = QStringLiteral("/operations/%1").arg(i);
        const ojson &o = (*ops)[i];
        if (!o.is_object())
            return refuse(QStringLiteral("%1: %2: not an object").arg(where, field));
        OperationRecord rec;
        QString role;
        if (!r.string(o, "id", field, &rec.id, true) || !r.string(o, "kind", field, &rec.kind, true)
            || !r.string(o, "role", field, &role, true) || !r.string(o, "unit", field, &rec.unit, true)
            || !r.list(o, "engines", field, &rec.engines) || !r.time(o, "started", field, &rec.started)
            || !r.time(o, "updated", field, &rec.updated) || !r.string(o, "step", field, &rec.step, false)
            || !r.string(o, "step_label", field, &rec.stepLabel, false)
            || !r.string(o, "step_status", field, &rec.stepStatus, false) || !r.list(o, "reached", field, &rec.reached))
            return refuse(r.error);
        if (role != QLatin1String("decode") && role != QLatin1String("prefill"))
            return refuse(QStringLiteral("%1: %2/role: \"%3\", not decode or prefill").arg(where, field, role));
        rec.role = role == QLatin1String("decode") ? Role::Decode : Role::Prefill;
        if (const auto stops = o.find("stops_engines"); stops != o.end()) {
            if (!stops->is_boolean())
                return refuse(QStringLiteral("%1: %2/stops_engines: not true or false").arg(where, field));
            rec.stopsEngines = stops->get<bool>();
        }
        if (const auto owner = o.find("owner"); owner != o.end()) {
            const QString at = field + QStringLiteral("/owner");
            if (!owner->is_object())
                return refuse(QStringLiteral("%1: %2: not an object").arg(where, at));
            if (!r.string(*owner, "host", at, &rec.owner.host, false) || !r.integer(*owner, "pid", at, &rec.owner.pid)
                || !r.string(*owner, "program", at, &rec.owner.program, false)
                || !r.integer(*owner, "start_ticks", at, &rec.owner.startTicks))
                return refuse(r.error);
        }
        records.append(rec);
    }
    return records;
}

std::optional<QList<OperationRecord>> OperationJournal::load(QString *error) const
{
    QFile file(m_path);
    if (!file.exists())
        return QList<OperationRecord>();
    if (file.size() > kMaxFileBytes) {
        if (error)
            *error = QStringLiteral("%1: %2 bytes, more than an operations journal holds (%3)")
                         .arg(m_path)
                         .arg(file.size())
                         .arg(kMaxFileBytes);
        return std::nullopt;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_path, file.errorString());
        return std::nullopt;
    }
    return parse(file.readAll(), m_path, error);
}

std::optional<QList<OperationRecord>> OperationJournal::interrupted(QString *error) const
{
    std::optional<QList<OperationRecord>> all = load(error);
    if (!all)
        return std::nullopt;
    QList<OperationRecord> gone;
    for (const OperationRecord &r : std::as_const(*all))
        if (!r.owner.isAlive())
            gone.append(r);
    return gone;
}

bool OperationJournal::rewrite(const std::function<void(QList<OperationRecord> &)> &change)
{
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath())) {
        m_error = QStringLiteral("%1: cannot create its directory").arg(m_path);
        return false;
    }
    QLockFile lock(m_path + QStringLiteral(".lock"));
    lock.setStaleLockTime(10000);
    if (!lock.tryLock(5000)) {
        m_error = QStringLiteral("%1: another process holds %1.lock").arg(m_path);
        return false;
    }
    QString error;
    std::optional<QList<OperationRecord>> records = load(&error);
    if (!records) {
        // Never overwrite what cannot be read: it may be the only trace of an interrupted operation.
        m_error = error;
        return false;
    }
    change(*records);
    QSaveFile out(m_path);
    if (!out.open(QIODevice::WriteOnly) || out.write(serialize(*records, m_proxyBase)) < 0 || !out.commit()) {
        m_error = QStringLiteral("%1: %2").arg(m_path, out.errorString());
        return false;
    }
    m_error.clear();
    return true;
}

bool OperationJournal::put(const OperationRecord &record)
{
    return rewrite([&record](QList<OperationRecord> &records) {
        for (OperationRecord &r : records)
            if (r.id == record.id) {
                r = record;
                return;
            }
        records.append(record);
    });
}

bool OperationJournal::drop(const QString &id)
{
    return rewrite([&id](QList<OperationRecord> &records) {
        records.removeIf([&id](const OperationRecord &r) { return r.id == id; });
    });
}

} // namespace pd
