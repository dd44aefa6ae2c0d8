// SPDX-License-Identifier: MIT
#include "net/httprequest.h"

#include "net/tlstrust.h"

#include <QNetworkReply>
#include <QTimer>

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

void armDeadline(QNetworkReply *reply, int ms)
{
    if (!reply || ms <= 0)
        return;
    auto *deadline = new QTimer(reply); // goes with the reply
    deadline->setSingleShot(true);
    QObject::connect(deadline, &QTimer::timeout, reply, [reply] {
        if (reply->isRunning()) {
            reply->setProperty("pdDeadline", true);
            reply->abort();
        }
    });
    deadline->start(ms);
}

} // namespace pd
