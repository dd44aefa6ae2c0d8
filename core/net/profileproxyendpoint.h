// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "net/proxyclient.h"

// Where the console reaches a profile's proxy: http://address:port, with the bearer token read from
// the environment variable the profile names (proxy.api_key_env), if any.
namespace pd {

ProxyEndpoint profileProxyEndpoint(const Profile &profile, int timeoutMs = 5000);

} // namespace pd
