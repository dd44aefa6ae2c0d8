// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

// What a field may contain. Names, addresses, paths and NIC names are later spliced into remote
// shell commands (quoted, but we refuse anything a shell would treat specially in the first place).
// Each check returns an empty string when the value is acceptable, else the reason.
namespace pd::fieldrules {

QString checkName(const QString &value);        // node and cluster names
QString checkHost(const QString &value);        // IPv4, IPv6 or DNS name
QString checkUser(const QString &value);
QString checkNic(const QString &value);
QString checkPath(const QString &value);        // file paths and model paths
QString checkEnvName(const QString &value);
QString checkFreeText(const QString &value);    // env values, extra arguments: no control characters
QString checkJumpHost(const QString &value);    // [user@]host[:port]
QString checkInstance(const QString &value);    // host:port as the proxy API takes it

} // namespace pd::fieldrules
