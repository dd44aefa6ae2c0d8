// SPDX-License-Identifier: MIT
#include "nodecheck/checkparsers.h"

#include <QRegularExpression>

namespace pd {

namespace {

using RE = QRegularExpression;

QString text(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes);
    s.remove(u'\r');
    return s;
}

QString firstLine(const QString &s)
{
    const QStringList lines = s.split(u'\n', Qt::SkipEmptyParts);
    for (const QString &l : lines) {
        if (!l.trimmed().isEmpty())
            return l.trimmed();
    }
    return {};
}

QRegularExpressionMatch find(const QString &s, const RE &re)
{
    return re.match(s);
}

bool validNonZeroIpv4(const QString &ip)
{
    static const RE re(QStringLiteral("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$"));
    const auto m = re.match(ip);
    if (!m.hasMatch())
        return false;
    bool nonZero = false;
    for (int i = 1; i <= 4; ++i) {
        const int v = m.captured(i).toInt();
        if (v > 255)
            return false;
        nonZero = nonZero || v != 0;
    }
    return nonZero;
}

struct Ctx {
    CheckResult r;
    QString out;
    QString err;
    void set(Verdict v, const QString &reason)
    {
        r.verdict = v;
        r.reason = reason;
    }
};

// Known stderr texts that are not a device fault (§2.0).
bool transientBusy(const QString &err)
{
    return err.contains(QLatin1String("hccn_tool is busy")) || err.contains(QLatin1String("The device is occupied"));
}

void judgeLldp(Ctx &c)
{
    static const RE ifname(QStringLiteral("^\\s*Ifname:\\s*(\\S+)"), RE::MultilineOption);
    static const RE sysName(QStringLiteral("^\\s*System Name TLV\\s*\\n\\s*(\\S.*?)\\s*$"), RE::MultilineOption);
    static const RE mgmt(QStringLiteral("Management Address TLV\\s*\\n\\s*IPv4:\\s*(\\S+)"));
    const auto m = find(c.out, ifname);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no LLDP neighbour (no Ifname line)"));
    c.r.values.insert(QStringLiteral("ifname"), m.captured(1));
    if (const auto s = find(c.out, sysName); s.hasMatch())
        c.r.values.insert(QStringLiteral("switch"), s.captured(1));
    if (const auto a = find(c.out, mgmt); a.hasMatch())
        c.r.values.insert(QStringLiteral("switch_ip"), a.captured(1));
    c.set(Verdict::Pass, QStringLiteral("switch port ") + m.captured(1));
}

void judgeLink(Ctx &c, const JudgeContext &ctx)
{
    static const RE re(
        QStringLiteral("^\\s*link status:\\s*(UP|DOWN)\\b"), RE::MultilineOption | RE::CaseInsensitiveOption);
    const auto m = find(c.out, re);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'link status:' line"));
    const QString s = m.captured(1).toUpper();
    c.r.values.insert(QStringLiteral("link"), s);
    if (s == QLatin1String("UP"))
        return c.set(Verdict::Pass, QStringLiteral("link status: UP"));
    if (ctx.generation == NpuGeneration::A3 && ctx.roceOptional)
        return c.set(
            Verdict::Warning, QStringLiteral("link status: DOWN (RoCE plane marked not used on this cluster)"));
    c.set(Verdict::Fail, QStringLiteral("link status: DOWN"));
}

void judgeNetHealth(Ctx &c)
{
    static const RE re(
        QStringLiteral("^\\s*net health status:\\s*(.+?)\\s*$"), RE::MultilineOption | RE::CaseInsensitiveOption);
    const auto m = find(c.out, re);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'net health status:' line"));
    const QString s = m.captured(1);
    c.r.values.insert(QStringLiteral("net_health"), s);
    const QString reason = QStringLiteral("net health status: ") + s;
    if (s.compare(QLatin1String("Success"), Qt::CaseInsensitive) == 0)
        return c.set(Verdict::Pass, reason);
    if (s.compare(QLatin1String("Init"), Qt::CaseInsensitive) == 0)
        return c.set(Verdict::Warning, reason + QStringLiteral(" (no probe target: is netdetect configured?)"));
    if (s.compare(QLatin1String("Detect ip set"), Qt::CaseInsensitive) == 0)
        return c.set(Verdict::Warning, reason + QStringLiteral(" (netdetect just configured, re-check)"));
    c.set(Verdict::Fail, reason);
}

void judgeNetDetect(Ctx &c)
{
    static const RE re(
        QStringLiteral("^\\s*netdetect addr(?:ess)?:\\s*(\\S*)"), RE::MultilineOption | RE::CaseInsensitiveOption);
    const auto m = find(c.out, re);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'netdetect addr:' line"));
    const QString ip = m.captured(1);
    c.r.values.insert(QStringLiteral("netdetect"), ip);
    if (!validNonZeroIpv4(ip))
        return c.set(Verdict::Fail,
            QStringLiteral("netdetect address not configured (%1)").arg(ip.isEmpty() ? QStringLiteral("empty") : ip));
    c.set(Verdict::Pass, QStringLiteral("netdetect ") + ip);
}

void judgeGateway(Ctx &c)
{
    static const RE re(
        QStringLiteral("^\\s*(?:default )?gateway:\\s*([0-9A-Fa-f.:]+?)\\s*(?:,\\s*Iface:\\s*(\\S+))?\\s*$"),
        RE::MultilineOption);
    const auto m = find(c.out, re);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'default gateway:' line"));
    c.r.values.insert(QStringLiteral("gateway"), m.captured(1));
    if (!m.captured(2).isEmpty())
        c.r.values.insert(QStringLiteral("iface"), m.captured(2));
    c.set(Verdict::Pass, QStringLiteral("gateway ") + m.captured(1));
}

void judgeIp(Ctx &c)
{
    static const RE ip(QStringLiteral("^\\s*ipaddr:\\s*([\\d.]+)"), RE::MultilineOption);
    static const RE mask(QStringLiteral("^\\s*netmask:\\s*([\\d.]+)"), RE::MultilineOption);
    const auto a = find(c.out, ip);
    const auto n = find(c.out, mask);
    if (!a.hasMatch() || !n.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no ipaddr/netmask"));
    c.r.values.insert(QStringLiteral("ip"), a.captured(1));
    c.r.values.insert(QStringLiteral("netmask"), n.captured(1));
    c.set(Verdict::Pass, a.captured(1) + u'/' + n.captured(1));
}

void judgeVnic(Ctx &c)
{
    static const RE link(
        QStringLiteral("^\\s*vnic link status:\\s*(UP|DOWN)\\b"), RE::MultilineOption | RE::CaseInsensitiveOption);
    static const RE ip(QStringLiteral("^\\s*vnic ipaddr:\\s*([\\d.]+)"), RE::MultilineOption);
    static const RE mask(QStringLiteral("^\\s*vnic netmask:\\s*([\\d.]+)"), RE::MultilineOption);
    const auto l = find(c.out, link);
    const auto a = find(c.out, ip);
    if (a.hasMatch())
        c.r.values.insert(QStringLiteral("ip"), a.captured(1));
    if (const auto n = find(c.out, mask); n.hasMatch())
        c.r.values.insert(QStringLiteral("netmask"), n.captured(1));
    if (!l.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'vnic link status:' line"));
    if (l.captured(1).toUpper() != QLatin1String("UP"))
        return c.set(Verdict::Fail, QStringLiteral("vnic link status: DOWN"));
    if (!a.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("vnic UP but no 'vnic ipaddr:'"));
    c.set(Verdict::Pass, QStringLiteral("vnic UP ") + a.captured(1));
}

void judgeTls(Ctx &c)
{
    static const RE sw(QStringLiteral("tls switch\\[(\\d)\\]"));
    static const RE pre(QStringLiteral("tls preconfigured\\[(\\d)\\]"));
    const auto m = find(c.out, sw);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'tls switch[..]' field"));
    c.r.values.insert(QStringLiteral("tls_switch"), m.captured(1));
    if (const auto p = find(c.out, pre); p.hasMatch())
        c.r.values.insert(QStringLiteral("tls_preconfigured"), p.captured(1));
    // Consistency across the cluster is decided by the cluster rule; on its own a value is fine.
    c.set(Verdict::Pass,
        QStringLiteral("tls switch %1 (%2)")
            .arg(m.captured(1),
                m.captured(1) == QLatin1String("0") ? QStringLiteral("disabled") : QStringLiteral("enabled")));
}

void judgeNpuHealth(Ctx &c)
{
    static const RE h(QStringLiteral("^\\s*Health(?: Status)?\\s*:\\s*(\\S+)"), RE::MultilineOption);
    static const RE code(QStringLiteral("^\\s*Error Code\\s*:\\s*(.+?)\\s*$"), RE::MultilineOption);
    static const RE info(QStringLiteral("^\\s*Error Information\\s*:\\s*(.+?)\\s*$"), RE::MultilineOption);
    const auto m = find(c.out, h);
    if (!m.hasMatch())
        return c.set(Verdict::Fail, QStringLiteral("no 'Health Status' line"));
    const QString s = m.captured(1);
    c.r.values.insert(QStringLiteral("health"), s);
    QString reason = QStringLiteral("health ") + s;
    if (const auto e = find(c.out, code); e.hasMatch() && e.captured(1) != QLatin1String("NA")) {
        c.r.values.insert(QStringLiteral("error_code"), e.captured(1));
        reason += QStringLiteral(", error code ") + e.captured(1);
        if (const auto i = find(c.out, info); i.hasMatch() && i.captured(1) != QLatin1String("NA"))
            reason += QStringLiteral(": ") + i.captured(1);
    }
    if (s == QLatin1String("OK"))
        return c.set(Verdict::Pass, reason);
    if (s == QLatin1String("Warning"))
        return c.set(Verdict::Warning, reason);
    c.set(Verdict::Fail, reason);
}

void judgeSpod(Ctx &c)
{
    static const RE kv(QStringLiteral("^\\s*(SDID|Super\\s*Pod\\s*Size|Super\\s*Pod\\s*ID|Server\\s*Index|Chassis\\s*"
                                      "ID|Super\\s*Pod\\s*Type)\\s*:\\s*(\\d+)"),
        RE::MultilineOption);
    auto it = kv.globalMatch(c.out);
    while (it.hasNext()) {
        const auto m = it.next();
        QString key = m.captured(1).toLower();
        key.remove(u' ');
        c.r.values.insert(key, m.captured(2));
    }
    if (!c.r.values.contains(QStringLiteral("sdid")))
        return c.set(Verdict::Fail, QStringLiteral("no SDID in spod-info"));
    c.set(Verdict::Pass,
        QStringLiteral("SDID %1, super pod %2, server %3")
            .arg(c.r.values.value(QStringLiteral("sdid")), c.r.values.value(QStringLiteral("superpodid")),
                c.r.values.value(QStringLiteral("serverindex"))));
}

void judgePing(Ctx &c, bool hccs)
{
    static const RE loss(QStringLiteral("(\\d+) packets transmitted, (\\d+) received, ([\\d.]+)% packets? loss"));
    static const RE timeout(QStringLiteral("recv time out seq"));
    static const RE l1(QStringLiteral("L1 plane check result = (0x[0-9a-fA-F]+)"));
    static const RE badPkt(
        QStringLiteral("^This pkt (send fail|check recv msg fail|ping not start to send)!"), RE::MultilineOption);
    const auto m = find(c.out, loss);
    if (c.out.contains(QLatin1String("Destination Host Unreachable")))
        return c.set(Verdict::Fail,
            QStringLiteral("ping %1: Destination Host Unreachable").arg(c.r.values.value(QStringLiteral("peer"))));
    if (!m.hasMatch())
        return c.set(c.r.exitCode != 0 ? Verdict::Fail : Verdict::Unknown, QStringLiteral("no ping summary line"));
    const int sent = m.captured(1).toInt();
    const int recv = m.captured(2).toInt();
    c.r.values.insert(QStringLiteral("sent"), m.captured(1));
    c.r.values.insert(QStringLiteral("received"), m.captured(2));
    c.r.values.insert(QStringLiteral("loss_pct"), m.captured(3));
    const QString peer = c.r.values.value(QStringLiteral("peer"));
    QString reason = QStringLiteral("%1 -> %2: %3/%4 received, %5% loss")
                         .arg(hccs ? QStringLiteral("hccs_ping") : QStringLiteral("ping"), peer)
                         .arg(recv)
                         .arg(sent)
                         .arg(m.captured(3));
    if (sent == 0 || recv == 0)
        return c.set(Verdict::Fail, reason);
    if (recv < sent)
        return c.set(Verdict::Warning, reason);
    if (hccs) {
        if (const auto b = find(c.out, badPkt); b.hasMatch())
            return c.set(Verdict::Warning, reason + QStringLiteral(", ") + b.captured(0));
        auto it = l1.globalMatch(c.out);
        while (it.hasNext()) {
            const auto l = it.next();
            if (l.captured(1).toUInt(nullptr, 16) != 0) {
                c.r.values.insert(QStringLiteral("l1_fault_mask"), l.captured(1));
                return c.set(Verdict::Warning, reason + QStringLiteral(", HCCS L1 plane faults ") + l.captured(1));
            }
        }
    } else if (find(c.out, timeout).hasMatch()) {
        return c.set(Verdict::Warning, reason + QStringLiteral(", recv time out"));
    }
    c.set(Verdict::Pass, reason);
}

void judgeTools(Ctx &c)
{
    if (!c.err.trimmed().isEmpty())
        return c.set(Verdict::Fail, firstLine(c.err));
    c.set(Verdict::Pass, QStringLiteral("hccn_tool and npu-smi found"));
}

void judgeNpuTable(Ctx &c, const JudgeContext &ctx)
{
    const NpuSmiTable t = parseNpuSmiTable(c.r.out);
    if (!t.error.isEmpty())
        return c.set(Verdict::Fail, t.error);
    if (t.devices.isEmpty())
        return c.set(Verdict::Fail, QStringLiteral("npu-smi info printed no device rows"));
    c.r.values.insert(QStringLiteral("version"), t.version);
    c.r.values.insert(QStringLiteral("devices"), QString::number(t.devices.size()));
    c.r.values.insert(QStringLiteral("processes"), QString::number(t.processes.size()));
    const bool a3 = t.a3Layout || t.devices.first().name.startsWith(QLatin1String("Ascend910"));
    c.r.values.insert(QStringLiteral("platform"), a3 ? QStringLiteral("A3") : QStringLiteral("A2"));
    const bool profileA3 = ctx.generation == NpuGeneration::A3;
    if (a3 != profileA3)
        return c.set(Verdict::Fail,
            QStringLiteral("node is %1 (npu-smi), the profile says %2")
                .arg(a3 ? QStringLiteral("A3") : QStringLiteral("A2"),
                    profileA3 ? QStringLiteral("A3") : QStringLiteral("A2")));
    if (t.devices.size() != ctx.deviceCount)
        return c.set(Verdict::Fail,
            QStringLiteral("npu-smi lists %1 devices, expected %2").arg(t.devices.size()).arg(ctx.deviceCount));
    QStringList bad;
    Verdict v = Verdict::Pass;
    for (const NpuSmiDevice &d : t.devices) {
        if (d.health == QLatin1String("OK"))
            continue;
        v = worse(v, d.health == QLatin1String("Warning") ? Verdict::Warning : Verdict::Fail);
        bad.append(QStringLiteral("NPU %1 chip %2 %3").arg(d.npu).arg(d.chip).arg(d.health));
    }
    QString reason = QStringLiteral("npu-smi %1: %2 devices, %3 processes")
                         .arg(t.version)
                         .arg(t.devices.size())
                         .arg(t.processes.size());
    if (!bad.isEmpty())
        reason += QStringLiteral("; ") + bad.join(QStringLiteral(", "));
    if (t.driverWarning) {
        v = worse(v, Verdict::Warning);
        reason += QStringLiteral("; driver package may be incompletely installed");
    }
    c.set(v, reason);
}

void judgeHccnConf(Ctx &c)
{
    // A missing file is a note, not a warning: the device checks read the driver directly, and most
    // containers lack the mount, so a warning here would sit on every node and teach operators to
    // ignore warnings. Unknown: the file's agreement with the devices was not checked.
    if (c.r.exitCode != 0)
        return c.set(Verdict::Unknown,
            QStringLiteral("not checked: hccn.conf not readable (%1); hccn_tool reads the driver directly and "
                           "containers often lack the mount")
                .arg(firstLine(c.err)));
    const auto conf = parseHccnConf(c.r.out);
    c.r.values.insert(QStringLiteral("devices"), QString::number(conf.size()));
    c.set(conf.isEmpty() ? Verdict::Warning : Verdict::Pass,
        conf.isEmpty() ? QStringLiteral("hccn.conf has no device entries")
                       : QStringLiteral("hccn.conf: %1 devices").arg(conf.size()));
}

} // namespace

CheckResult judgeSection(const CheckSection &section, const SectionOutput &output, const JudgeContext &context)
{
    Ctx c;
    c.r.device = section.device;
    c.r.kind = section.kind;
    c.r.command = section.command;
    c.r.out = output.out;
    c.r.err = output.err;
    c.r.exitCode = output.exitCode;
    if (!section.peer.isEmpty())
        c.r.values.insert(QStringLiteral("peer"), section.peer);
    c.out = text(output.out);
    c.err = text(output.err);

    if (!output.complete) {
        c.set(Verdict::Unknown, QStringLiteral("no result: the node command ended before this check finished"));
        return c.r;
    }
    if (output.exitCode == 124) {
        c.set(Verdict::Fail, QStringLiteral("timed out"));
        return c.r;
    }
    if (output.exitCode == 127) {
        c.set(Verdict::Fail, QStringLiteral("command not found: ") + firstLine(c.err));
        return c.r;
    }
    if (section.kind == CheckKind::Tools) {
        judgeTools(c);
        return c.r;
    }
    if (section.kind == CheckKind::HccnConf) {
        judgeHccnConf(c);
        return c.r;
    }
    if (section.kind == CheckKind::NpuTable) {
        // dcmi errors may come on stdout; the table parser recognises them.
        judgeNpuTable(c, context);
        if (c.r.verdict == Verdict::Pass && output.exitCode != 0)
            c.set(Verdict::Fail, QStringLiteral("npu-smi exit code %1: %2").arg(output.exitCode).arg(firstLine(c.err)));
        return c.r;
    }
    const bool ping = section.kind == CheckKind::Ping || section.kind == CheckKind::HccsPing;
    // Common rule (§2.0): rc != 0, any stderr line or empty stdout => failure with the stderr text.
    if (!ping && (output.exitCode != 0 || !c.err.trimmed().isEmpty() || c.out.trimmed().isEmpty())) {
        const QString why = !c.err.trimmed().isEmpty() ? firstLine(c.err)
            : output.exitCode != 0                     ? QStringLiteral("exit code %1").arg(output.exitCode)
                                                       : QStringLiteral("empty output");
        if (transientBusy(c.err)) {
            c.set(Verdict::Warning, why + QStringLiteral(" (tool busy: run the checks again)"));
        } else if (section.kind == CheckKind::Tls && c.err.contains(QLatin1String("permission denied"))) {
            c.set(Verdict::Warning, why + QStringLiteral(" (run as root to read the TLS switch)"));
        } else if (section.kind == CheckKind::Lldp && c.out.trimmed().isEmpty() && c.err.trimmed().isEmpty()) {
            c.set(Verdict::Fail, QStringLiteral("no LLDP neighbour (empty output)"));
        } else {
            c.set(Verdict::Fail, why);
        }
        // Keep parsed facts even when failing (an IP printed next to a warning is still an IP).
        if (output.exitCode == 0 && !c.out.trimmed().isEmpty()) {
            Ctx again = c;
            switch (section.kind) {
            case CheckKind::Ip:
                judgeIp(again);
                break;
            case CheckKind::Vnic:
                judgeVnic(again);
                break;
            case CheckKind::Tls:
                judgeTls(again);
                break;
            default:
                break;
            }
            c.r.values = again.r.values;
        }
        return c.r;
    }
    switch (section.kind) {
    case CheckKind::Lldp:
        judgeLldp(c);
        break;
    case CheckKind::Link:
        judgeLink(c, context);
        break;
    case CheckKind::NetHealth:
        judgeNetHealth(c);
        break;
    case CheckKind::NetDetect:
        judgeNetDetect(c);
        break;
    case CheckKind::Gateway:
        judgeGateway(c);
        break;
    case CheckKind::Ip:
        judgeIp(c);
        break;
    case CheckKind::Vnic:
        judgeVnic(c);
        break;
    case CheckKind::Tls:
        judgeTls(c);
        break;
    case CheckKind::NpuHealth:
        judgeNpuHealth(c);
        break;
    case CheckKind::SpodInfo:
        judgeSpod(c);
        break;
    case CheckKind::Ping:
        judgePing(c, false);
        break;
    case CheckKind::HccsPing:
        judgePing(c, true);
        break;
    default:
        c.set(Verdict::Unknown, QStringLiteral("no rule for this check"));
        break;
    }
    if (ping && transientBusy(c.err) && c.r.verdict != Verdict::Pass)
        c.set(Verdict::Warning, firstLine(c.err) + QStringLiteral(" (run the checks again)"));
    else if (ping && output.exitCode != 0 && c.r.verdict == Verdict::Pass)
        c.set(Verdict::Fail, QStringLiteral("exit code %1: %2").arg(output.exitCode).arg(firstLine(c.err)));
    return c.r;
}

NpuSmiTable parseNpuSmiTable(const QByteArray &bytes)
{
    static const RE version(QStringLiteral("npu-smi\\s+(\\S+)\\s+Version:\\s*(\\S+)"));
    static const RE dev1(QStringLiteral("^\\|\\s*(\\d+)\\s+(\\S+)\\s*\\|\\s*(OK|Warning|Alarm|Critical|UNKNOWN)\\s*\\|"
                                        "\\s*([\\d.]+|-)\\s+(\\d+)\\s+(\\d+)\\s*/\\s*(\\d+)\\s*\\|"));
    static const RE dev2(
        QStringLiteral("^\\|\\s*(\\d+)\\s+(?:(\\d+)\\s*)?\\|\\s*([0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.\\d)"
                       "\\s*\\|\\s*(\\d+)\\s+(\\d+)\\s*/\\s*(\\d+)\\s+(\\d+)\\s*/\\s*(\\d+)\\s*\\|"));
    static const RE proc(
        QStringLiteral("^\\|\\s*(\\d+)\\s+(\\d+)\\s*\\|\\s*(\\d+)\\s*\\|\\s*(.*?)\\s*\\|\\s*(\\d+)\\s*\\|"));
    static const RE a3Header(QStringLiteral("^\\|\\s*Chip\\s+Phy-ID\\s*\\|"));
    static const RE errors(QStringLiteral(
        "(dcmi module initialize failed.*|dcmi model initialized failed.*|There is no NPU card on this server\\.?)"));
    NpuSmiTable t;
    const QString s = text(bytes);
    if (const auto e = errors.match(s); e.hasMatch())
        t.error = e.captured(1).trimmed();
    bool inProcesses = false;
    NpuSmiDevice pending;
    bool havePending = false;
    const QStringList lines = s.split(u'\n');
    for (const QString &line : lines) {
        if (const auto v = version.match(line); v.hasMatch() && t.version.isEmpty())
            t.version = v.captured(2);
        if (a3Header.match(line).hasMatch())
            t.a3Layout = true;
        if (line.contains(QLatin1String("Process id")))
            inProcesses = true;
        if (line.contains(QLatin1String("[WARNING]The driver package may not be completely installed")))
            t.driverWarning = true;
        if (inProcesses) {
            if (const auto p = proc.match(line); p.hasMatch())
                t.processes.append({ p.captured(1).toInt(), p.captured(3).toInt() });
            continue;
        }
        if (const auto m = dev1.match(line); m.hasMatch()) {
            pending = NpuSmiDevice {};
            pending.npu = m.captured(1).toInt();
            pending.name = m.captured(2);
            pending.health = m.captured(3);
            havePending = true;
            continue;
        }
        if (const auto m = dev2.match(line); m.hasMatch() && havePending) {
            pending.chip = m.captured(1).toInt();
            pending.phyId = m.captured(2).isEmpty() ? -1 : m.captured(2).toInt();
            pending.busId = m.captured(3);
            pending.hbmUsedMb = m.captured(7).toInt();
            pending.hbmTotalMb = m.captured(8).toInt();
            t.devices.append(pending);
            havePending = false;
        }
    }
    return t;
}

QMap<int, QMap<QString, QString>> parseHccnConf(const QByteArray &bytes)
{
    static const RE kv(QStringLiteral("^\\s*(\\w+?)_(\\d+)\\s*=\\s*(.*?)\\s*$"));
    QMap<int, QMap<QString, QString>> out;
    const QStringList lines = text(bytes).split(u'\n');
    for (const QString &line : lines) {
        const auto m = kv.match(line);
        if (m.hasMatch())
            out[m.captured(2).toInt()].insert(m.captured(1), m.captured(3));
    }
    return out;
}

} // namespace pd
