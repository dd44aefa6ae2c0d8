// SPDX-License-Identifier: MIT
#include "watch/problemtransitions.h"

#include <QDateTime>
#include <QSet>

namespace pd {

QList<ProblemTransition> ProblemTransitions::update(const QList<Problem> &current, std::int64_t nowMs)
{
    QList<ProblemTransition> out;
    QSet<QString> now;
    for (const Problem &p : current)
        now.insert(p.key);
    for (const QString &key : std::as_const(m_order)) {
        if (!now.contains(key))
            out.append({ProblemTransition::Kind::Cleared, m_open.value(key), nowMs});
    }
    QList<QString> order;
    for (const QString &key : std::as_const(m_order)) {
        if (now.contains(key))
            order.append(key);
        else
            m_open.remove(key);
    }
    for (const Problem &p : current) {
        if (!m_open.contains(p.key)) {
            out.append({ProblemTransition::Kind::Appeared, p, nowMs});
            order.append(p.key);
        }
        m_open.insert(p.key, p); // the latest words and evidence, for the clearing line
    }
    m_order = order;
    return out;
}

QString isoTime(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

nlohmann::ordered_json problemJson(const Problem &p, const EngineIdOf &engineId)
{
    auto str = [](const QString &s) { return s.toStdString(); };
    nlohmann::ordered_json evidence = nlohmann::ordered_json::array();
    for (const QString &line : p.evidence)
        evidence.push_back(str(line));
    nlohmann::ordered_json j{{"key", str(p.key)},
                             {"kind", str(problemKindName(p.kind))},
                             {"severity", str(problemSeverityName(p.severity))},
                             {"what", str(p.what)},
                             {"where", str(p.where)},
                             {"detail", str(p.detail)},
                             {"since", p.sinceMs > 0 ? nlohmann::ordered_json(str(isoTime(p.sinceMs))) : nlohmann::ordered_json()},
                             {"engines", p.engineCount},
                             {"evidence", evidence},
                             {"next_step", str(p.nextStep)}};
    if (p.engine >= 0 && engineId)
        j["engine"] = str(engineId(p.engine));
    if (!p.group.isEmpty())
        j["group"] = str(p.group);
    return j;
}

nlohmann::ordered_json transitionJson(const ProblemTransition &t, const EngineIdOf &engineId)
{
    return {{"event", t.kind == ProblemTransition::Kind::Appeared ? "appeared" : "cleared"},
            {"at", isoTime(t.atMs).toStdString()},
            {"problem", problemJson(t.problem, engineId)}};
}

int problemsExitCode(const QList<Problem> &problems)
{
    int code = 0;
    for (const Problem &p : problems)
        code = std::max(code, p.severity == ProblemSeverity::Warning ? 1 : 2);
    return code;
}

} // namespace pd
