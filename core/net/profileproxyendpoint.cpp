// SPDX-License-Identifier: MIT
#include "net/profileproxyendpoint.h"

namespace pd {

ProxyEndpoint profileProxyEndpoint(const Profile &profile, int timeoutMs)
{
    ProxyEndpoint endpoint;
    endpoint.base.setScheme(QStringLiteral("http"));
    endpoint.base.setHost(profile.proxy.address);
    endpoint.base.setPort(profile.proxy.port);
    if (!profile.proxy.apiKeyEnv.isEmpty())
        endpoint.bearerToken = qgetenv(profile.proxy.apiKeyEnv.toLocal8Bit().constData());
    endpoint.timeoutMs = timeoutMs;
    return endpoint;
}

} // namespace pd
