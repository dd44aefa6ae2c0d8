// SPDX-License-Identifier: MIT
#include "topology/topologyfilter.h"

#include <QStringList>

namespace pd {

QString TopologyFilter::searchKey(const Profile &profile, const Engine &engine)
{
    const QString node = engine.nodeIndex < profile.nodes.size() ? profile.nodes.at(engine.nodeIndex).name : QString();
    return QStringLiteral("%1 %2 %3 :%4 dp %5 dp%5 %6")
        .arg(node, engine.host, engine.id())
        .arg(engine.port)
        .arg(engine.dpRank)
        .arg(roleName(engine.role))
        .toLower();
}

bool TopologyFilter::matches(const Engine &engine, EngineState state, const QString &searchKey) const
{
    if (!states.isEmpty() && !states.contains(state))
        return false;
    if (node >= 0 && engine.nodeIndex != node)
        return false;
    if (role && engine.role != *role)
        return false;
    const QString needle = text.trimmed().toLower();
    if (needle.isEmpty())
        return true;
    const QString stateWords = engineStateName(state) + QLatin1Char(' ') + engineStateLabel(state).toLower();
    const QStringList words = needle.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        if (!searchKey.contains(word) && !stateWords.contains(word))
            return false;
    }
    return true;
}

} // namespace pd
