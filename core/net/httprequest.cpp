// SPDX-License-Identifier: MIT
#include "net/httprequest.h"

#include "net/tlstrust.h"

namespace pd {

QNetworkRequest makeHttpRequest(const HttpRequestSpec &spec)
{
    QNetworkRequest request(spec.url);
    if (spec.timeoutMs > 0)
        request.setTransferTimeout(spec.timeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
        spec.followSafeRedirects ? QNetworkRequest::NoLessSafeRedirectPolicy : QNetworkRequest::ManualRedirectPolicy);
    if (!spec.bearerToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + spec.bearerToken);
    if (!spec.contentType.isEmpty())
        request.setRawHeader("Content-Type", spec.contentType);
    applyTlsTrust(request, spec.extraCas);
    return request;
}

} // namespace pd
