// SPDX-License-Identifier: MIT
#include "httpcall.h"

#include "waituntil.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

namespace pd::test {

HttpAnswer httpCall(const QByteArray &method, const QString &url, const QByteArray &body, int timeoutMs)
{
    QNetworkAccessManager manager;
    QNetworkRequest request{ QUrl(url) };
    request.setTransferTimeout(timeoutMs);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = manager.sendCustomRequest(request, method, body);
    HttpAnswer answer;
    if (!waitUntil([reply] { return reply->isFinished(); }, timeoutMs + 1000)) {
        reply->abort();
        answer.error = QStringLiteral("%1 %2: no answer in %3 ms").arg(QString::fromLatin1(method), url).arg(timeoutMs);
    }
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    if (answer.status == 0 && answer.error.isEmpty())
        answer.error = reply->errorString();
    delete reply;
    return answer;
}

} // namespace pd::test
