// SPDX-License-Identifier: MIT
#include "sshhostspec.h"

#include "cluster/profile.h"

namespace pd {

SshHostSpec sshHostSpec(const Node &node)
{
    SshHostSpec spec;
    spec.target.node = node.name;
    spec.target.host = node.address;
    spec.target.port = node.ssh.port;
    spec.target.user = node.ssh.user;
    spec.identityFile = node.ssh.identityFile;
    spec.jumpHost = node.ssh.jumpHost;
    return spec;
}

QString sessionKey(const CommandTarget &target)
{
    if (!target.node.isEmpty())
        return target.node;
    return target.host + QLatin1Char(':') + QString::number(target.port);
}

QString targetLabel(const CommandTarget &target)
{
    const QString where = target.host + QLatin1Char(':') + QString::number(target.port);
    if (target.node.isEmpty() || target.node == target.host)
        return where;
    return target.node + QStringLiteral(" (") + where + QLatin1Char(')');
}

} // namespace pd
