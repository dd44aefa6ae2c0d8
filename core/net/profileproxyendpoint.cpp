// SPDX-License-Identifier: MIT
#include "net/profileproxyendpoint.h"

#include "cluster/fieldrules.h"
#include "net/tlstrust.h"

namespace pd {

ProxyEndpoint profileProxyEndpoint(const Profile &profile, int timeoutMs)
{
    ProxyEndpoint endpoint;
    endpoint.base.setScheme(profile.tls.proxy ? QStringLiteral("https") : QStringLiteral("http"));
    endpoint.extraCaCertificates = loadCaFile(profile.tls.caFile).certificates; // errors: the validator's
    endpoint.base.setHost(profile.proxy.address);
    endpoint.base.setPort(profile.proxy.port);
    endpoint.bearerToken = profileApiKey(profile);
    endpoint.timeoutMs = timeoutMs;
    endpoint.declaredGeneration = profile.proxy.generation;
    return endpoint;
}

QByteArray profileApiKey(const Profile &profile)
{
    const QString &name = profile.proxy.apiKeyEnv;
    if (name.isEmpty() || !fieldrules::checkApiKeyEnvName(name).isEmpty())
        return {};
    return qgetenv(name.toLocal8Bit().constData());
}

} // namespace pd
