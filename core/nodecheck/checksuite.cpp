// SPDX-License-Identifier: MIT
#include "nodecheck/checksuite.h"

#include "exec/shellarg.h"

#include <QRandomGenerator>

namespace pd {

namespace {

QString hccn(int device, const QString &args)
{
    return QStringLiteral("hccn_tool -i %1 %2").arg(device).arg(args);
}

// A3: hccn device d is die d%2 of NPU module d/2 (spec §1); A2: NPU d, chip 0.
QString npuSmi(NpuGeneration generation, int device, const QString &type)
{
    const int npu = generation == NpuGeneration::A3 ? device / 2 : device;
    const int chip = generation == NpuGeneration::A3 ? device % 2 : 0;
    return QStringLiteral("npu-smi info -t %1 -i %2 -c %3").arg(type).arg(npu).arg(chip);
}

QString idFor(CheckKind kind, int device)
{
    return device < 0 ? checkKindName(kind) : checkKindName(kind) + u'.' + QString::number(device);
}

CheckSection section(CheckKind kind, int device, const QString &command, const QString &peer = {})
{
    return CheckSection { idFor(kind, device), kind, device, command, peer };
}

QByteArray marker(const QByteArray &token)
{
    return "@@PDCHK:" + token;
}

} // namespace

QList<CheckSection> localSuite(NpuGeneration generation, int deviceCount, const SuiteOptions &options)
{
    QList<CheckSection> s;
    s.append(section(CheckKind::Tools, -1,
        QStringLiteral("sh -c 'for t in hccn_tool npu-smi; do command -v \"$t\" || "
                       "echo \"$t: not found on PATH ($PATH)\" >&2; done'")));
    s.append(section(CheckKind::NpuTable, -1, QStringLiteral("npu-smi info")));
    s.append(
        section(CheckKind::HccnConf, -1, QStringLiteral("cat ") + QString::fromUtf8(shellArg(options.hccnConfPath))));
    const bool a3 = generation == NpuGeneration::A3;
    for (int d = 0; d < deviceCount; ++d) {
        s.append(section(CheckKind::Lldp, d, hccn(d, QStringLiteral("-lldp -g"))));
        s.append(section(CheckKind::Link, d, hccn(d, QStringLiteral("-link -g"))));
        s.append(section(CheckKind::NetHealth, d, hccn(d, QStringLiteral("-net_health -g"))));
        s.append(section(CheckKind::NetDetect, d, hccn(d, QStringLiteral("-netdetect -g"))));
        s.append(section(CheckKind::Gateway, d, hccn(d, QStringLiteral("-gateway -g"))));
        if (a3)
            s.append(section(CheckKind::Vnic, d, hccn(d, QStringLiteral("-vnic -g"))));
        else
            s.append(section(CheckKind::Ip, d, hccn(d, QStringLiteral("-ip -g"))));
        s.append(section(CheckKind::Tls, d, hccn(d, QStringLiteral("-tls -g"))));
        s.append(section(CheckKind::NpuHealth, d, npuSmi(generation, d, QStringLiteral("health"))));
        if (a3)
            s.append(section(CheckKind::SpodInfo, d, npuSmi(generation, d, QStringLiteral("spod-info"))));
    }
    return s;
}

QList<CheckSection> pingSuite(NpuGeneration generation, const QStringList &peerIps)
{
    QList<CheckSection> s;
    const bool a3 = generation == NpuGeneration::A3;
    const CheckKind kind = a3 ? CheckKind::HccsPing : CheckKind::Ping;
    for (int d = 0; d < peerIps.size(); ++d) {
        if (peerIps.at(d).isEmpty())
            continue;
        const QString addr = QString::fromUtf8(shellArg(peerIps.at(d)));
        s.append(section(kind, d,
            hccn(d, (a3 ? QStringLiteral("-hccs_ping -g address ") : QStringLiteral("-ping -g address ")) + addr),
            peerIps.at(d)));
    }
    return s;
}

QByteArray suiteScript(const QList<CheckSection> &sections, const QByteArray &token, const SuiteOptions &options)
{
    const QByteArray m = marker(token);
    QByteArray sh;
    sh += "LC_ALL=C; export LC_ALL\n";
    sh += "PATH=";
    if (!options.toolDir.isEmpty())
        sh += shellArg(options.toolDir) + ':';
    sh += "\"$PATH\":/usr/local/Ascend/driver/tools:/usr/local/sbin:/usr/local/bin:/usr/sbin:/sbin; export PATH\n";
    sh += "__d=$(mktemp -d 2>/dev/null) || { __d=/tmp/pdchk.$$; mkdir -p \"$__d\"; }\n";
    sh += "trap 'rm -rf \"$__d\"' EXIT\n";
    sh += "__t=; if command -v timeout >/dev/null 2>&1; then __t=\"timeout "
        + QByteArray::number(options.sectionTimeoutSec) + "\"; fi\n";
    sh += "__s() { __id=$1; shift; printf '%s BEGIN %s\\n' '" + m
        + "' \"$__id\"; $__t \"$@\" 2>\"$__d/e\" </dev/null; __rc=$?; "
          "printf '\\n%s STDERR %s\\n' '"
        + m + "' \"$__id\"; cat \"$__d/e\"; printf '\\n%s END %s %d\\n' '" + m + "' \"$__id\" \"$__rc\"; }\n";
    for (const CheckSection &s : sections)
        sh += "__s " + s.id.toUtf8() + ' ' + s.command.toUtf8() + '\n';
    return sh;
}

QMap<QString, SectionOutput> splitSuiteOutput(const QByteArray &bytes, const QByteArray &token)
{
    // Delimiter lines: "<m> BEGIN id", "\n<m> STDERR id", "\n<m> END id rc". The script adds one '\n'
    // before STDERR and END so a delimiter always starts a line; that byte is removed again here.
    QMap<QString, SectionOutput> result;
    const QByteArray m = marker(token) + ' ';
    enum class State { Outside, Out, Err } state = State::Outside;
    QString current;
    qsizetype bodyStart = 0;
    qsizetype pos = 0;
    auto bodyUntil = [&](qsizetype lineStart) {
        qsizetype end = lineStart;
        if (end > bodyStart && bytes.at(end - 1) == '\n')
            --end; // the separator the script added
        return bytes.mid(bodyStart, end - bodyStart);
    };
    while (pos < bytes.size()) {
        qsizetype eol = bytes.indexOf('\n', pos);
        const bool lastLine = eol < 0;
        if (lastLine)
            eol = bytes.size();
        const QByteArrayView line(bytes.constData() + pos, eol - pos);
        if (line.startsWith(m)) {
            const QList<QByteArray> words = line.sliced(m.size()).toByteArray().split(' ');
            const QByteArray what = words.value(0);
            const QString id = QString::fromUtf8(words.value(1));
            if (what == "BEGIN") {
                current = id;
                result[current] = SectionOutput {};
                state = State::Out;
            } else if (what == "STDERR" && id == current && state == State::Out) {
                result[current].out = bodyUntil(pos);
                state = State::Err;
            } else if (what == "END" && id == current && state == State::Err) {
                SectionOutput &o = result[current];
                o.err = bodyUntil(pos);
                bool ok = false;
                o.exitCode = words.value(2).trimmed().toInt(&ok);
                if (!ok)
                    o.exitCode = -1;
                o.complete = true;
                state = State::Outside;
            }
            bodyStart = lastLine ? bytes.size() : eol + 1;
        }
        pos = eol + 1;
    }
    // A section cut short (node command timed out): keep what arrived.
    if (state == State::Out)
        result[current].out = bytes.mid(bodyStart);
    else if (state == State::Err)
        result[current].err = bytes.mid(bodyStart);
    return result;
}

QByteArray newSuiteToken()
{
    const quint64 a = QRandomGenerator::global()->generate64();
    return QByteArray::number(a, 16);
}

} // namespace pd
