// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"

#include <QString>

// Everything needed to open a session to one node: where (the CommandTarget every runner takes),
// plus what only SSH needs: an explicit identity file and a bastion.
namespace pd {

struct Node;

struct SshHostSpec {
    CommandTarget target;
    QString identityFile; // explicit key; empty: ssh-agent, ~/.ssh/config IdentityFile, ~/.ssh/id_*
    QString jumpHost; // "[user@]host[:port]" or a config alias; empty: ~/.ssh/config ProxyJump
};

// The spec of a profile node: address, SSH port/user, identity file and jump host.
SshHostSpec sshHostSpec(const Node &node);
// The key the pool keeps a session under: the node name, else "host:port".
QString sessionKey(const CommandTarget &target);
// "node3 (10.0.0.3:22)" for messages.
QString targetLabel(const CommandTarget &target);

} // namespace pd
