// SPDX-License-Identifier: MIT
#pragma once

// One HTTP request from a test, waited for in a local event loop (the simulated cluster may live in the
// same thread): the body, and the status in *status (0 when nothing answered). Bounded: 5 s per transfer.
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace pdtest {

inline QByteArray blockingHttp(QNetworkAccessManager &network, const QByteArray &method, const QString &url,
                               const QByteArray &body = {}, int *status = nullptr)
{
    QNetworkRequest request{QUrl(url)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setTransferTimeout(5000);
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    if (status)
        *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray data = reply->readAll();
    reply->deleteLater();
    return data;
}

} // namespace pdtest
