// SPDX-License-Identifier: MIT
// The text of a libssh session's last error, for the connection and the exec halves of SshConnection.
#pragma once

#include <QString>

#include <libssh/libssh.h>

namespace pd {

inline QString sshErrorText(ssh_session session)
{
    const char *text = ssh_get_error(session);
    return text && *text ? QString::fromUtf8(text) : QStringLiteral("unknown libssh error");
}

} // namespace pd
