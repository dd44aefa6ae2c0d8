// SPDX-License-Identifier: MIT
#pragma once

#include "triage/problem.h"

#include <QHash>
#include <QList>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>

// What changed between two ranked problem lists: the problems that appeared and the ones that cleared
// (by key), each once. The watchdog prints, posts and audits these transitions, not the whole list.
namespace pd {

struct ProblemTransition {
    enum class Kind { Appeared, Cleared };
    Kind kind = Kind::Appeared;
    Problem problem; // a cleared problem as it was last seen
    std::int64_t atMs = 0;
};

class ProblemTransitions {
public:
    QList<ProblemTransition> update(const QList<Problem> &current, std::int64_t nowMs);
    int openCount() const { return int(m_open.size()); }

private:
    QHash<QString, Problem> m_open;
    QList<QString> m_order; // keys in the order they appeared
};

// engine index -> "host:port" (the JSON names engines by address, never by an index of this process).
using EngineIdOf = std::function<QString(int engine)>;

nlohmann::ordered_json problemJson(const Problem &problem, const EngineIdOf &engineId);
// {"event": "appeared"|"cleared", "at": ISO time, "problem": {...}}
nlohmann::ordered_json transitionJson(const ProblemTransition &transition, const EngineIdOf &engineId);
QString isoTime(std::int64_t ms);

// `pdctl problems` exit code: 0 none, 1 warnings only, 2 an error or a critical problem.
int problemsExitCode(const QList<Problem> &problems);

} // namespace pd
