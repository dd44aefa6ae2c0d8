// SPDX-License-Identifier: MIT
#include "ops/nodereachability.h"

#include <QSet>

#include <algorithm>

namespace pd {

NodeReachability nodeReachability(const Profile &profile, const QList<ProcessOutcome> &outcomes)
{
    // One pass over the engines, one lookup per outcome: a 2,048-engine status round must not pay
    // engines × outcomes id strings.
    QHash<QString, int> nodeOf;
    const QList<Engine> engines = profile.engines();
    nodeOf.reserve(engines.size());
    for (const Engine &e : engines)
        nodeOf.insert(e.id(), e.nodeIndex);
    QSet<int> answered;
    QHash<int, QString> failed;
    for (const ProcessOutcome &o : outcomes) {
        const auto it = nodeOf.constFind(o.id);
        if (it == nodeOf.cend())
            continue;
        if (o.process == ProcessFact::Unknown && !o.error.isEmpty())
            failed.insert(it.value(), o.error);
        else
            answered.insert(it.value());
    }
    NodeReachability r;
    r.answered = QList<int>(answered.cbegin(), answered.cend());
    std::sort(r.answered.begin(), r.answered.end());
    for (auto it = failed.cbegin(); it != failed.cend(); ++it)
        if (!answered.contains(it.key()))
            r.unreachable.insert(it.key(), it.value());
    return r;
}

} // namespace pd
