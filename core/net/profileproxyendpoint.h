// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "net/proxyclient.h"

// Where the console reaches a profile's proxy: http(s)://address:port (tls.proxy), verified against the
// system's CAs plus tls.ca_file, with the bearer token read from the environment variable the profile
// names (proxy.api_key_env), if any. Every client of the proxy takes its endpoint from here.
namespace pd {

ProxyEndpoint profileProxyEndpoint(const Profile &profile, int timeoutMs = 5000);
// The value of the profile's api_key_env, read only when the name passes the validator's rule
// (fieldrules::checkApiKeyEnvName); empty otherwise. Every reader of the token goes through here.
QByteArray profileApiKey(const Profile &profile);

} // namespace pd
