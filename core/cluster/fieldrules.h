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
// api_key_env: only a name that says it holds an API key or a token (*_API_KEY, *_TOKEN, OPENAI_API_KEY).
// A profile from someone else must not be able to send, say, AWS_SECRET_ACCESS_KEY as a bearer token.
QString checkApiKeyEnvName(const QString &value);
QString checkFreeText(const QString &value);    // env values, extra arguments: no control characters
QString checkJumpHost(const QString &value);    // [user@]host[:port]
QString checkInstance(const QString &value);    // host:port as the proxy API takes it

} // namespace pd::fieldrules
