// SPDX-License-Identifier: MIT
#pragma once

// A local server that answers /v1/completions the ways a broken proxy can (spec proxy-api §2.5, §7,
// §8): request "#N" of a warm-up gets behaviour N % 8 (see Mode), so the test knows what each request
// met whatever order they arrive in and however often QNAM retries. /v1/models answers 404 (a proxy
// before Aug 2026). With hold set, no completion is ever answered (for cancellation).
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>

class HostileProxy final : public QObject {
public:
    enum Mode { Ok, NoDone, MalformedLine3, Empty200, Http503, CloseSilently, ErrorEvent, ResetMidStream, ModeCount };

    bool hold = false;
    int completionsSeen = 0;

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }

    HostileProxy()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, s, [this, s] { read(s); });
            }
        });
    }

private:
    static QByteArray chunk(const QByteArray &data)
    {
        return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
    }
    static QByteArray event(const QByteArray &json) { return chunk("data: " + json + "\n\n"); }
    static QByteArray text(int n)
    {
        return R"({"id":"cmpl-h","choices":[{"index":0,"text":" w)" + QByteArray::number(n) + R"("}]})";
    }
    static QByteArray head(int status, const QByteArray &reason, const QByteArray &type, bool chunked)
    {
        return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\nContent-Type: " + type
            + (chunked ? QByteArray("\r\nTransfer-Encoding: chunked") : QByteArray()) + "\r\nConnection: close\r\n";
    }

    void read(QTcpSocket *s)
    {
        QByteArray buffer = s->property("buffer").toByteArray() + s->readAll();
        s->setProperty("buffer", buffer);
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QByteArray headers = buffer.left(end);
        const auto length
            = QRegularExpression(QStringLiteral("(?i)content-length: *(\\d+)")).match(QString::fromLatin1(headers));
        const qsizetype need = end + 4 + (length.hasMatch() ? length.captured(1).toLongLong() : 0);
        if (buffer.size() < need)
            return;
        s->setProperty("buffer", QByteArray());
        if (headers.startsWith("GET /v1/models")) {
            const QByteArray body = R"({"detail":"Not Found"})";
            s->write(head(404, "Not Found", "application/json", false)
                + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            s->disconnectFromHost();
            return;
        }
        ++completionsSeen;
        if (hold)
            return;
        const auto index = QRegularExpression(QStringLiteral("warm-up request #(\\d+):"))
                               .match(QString::fromLatin1(buffer.mid(end)));
        const int mode = index.hasMatch() ? index.captured(1).toInt() % ModeCount : Ok;
        const QByteArray sse = head(200, "OK", "text/event-stream; charset=utf-8", true) + "\r\n";
        switch (Mode(mode)) {
        case Ok:
            s->write(sse + event(text(0)) + event(text(1)) + event("[DONE]") + "0\r\n\r\n");
            break;
        case NoDone:
            s->write(sse + event(text(0)) + event(text(1)) + "0\r\n\r\n");
            break;
        case MalformedLine3:
            s->write(sse + event(text(0)) + event(R"({"id":"cmpl-h","choices":[{"index":0,"text":)") + event("[DONE]")
                + "0\r\n\r\n");
            break;
        case Empty200:
            s->write(sse + "0\r\n\r\n");
            break;
        case Http503: {
            const QByteArray body = R"({"error":"All backend instances failed","failed":["127.0.0.9:9000"]})";
            s->write(head(503, "Service Unavailable", "application/json", false)
                + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            break;
        }
        case CloseSilently:
            s->abort();
            return;
        case ErrorEvent:
            s->write(sse + event(text(0)) + event(R"({"error":{"message":"KV transfer timed out","code":500}})")
                + "0\r\n\r\n");
            break;
        case ResetMidStream:
            s->write(sse + event(text(0)));
            s->flush();
            s->abort(); // no terminating chunk: the connection breaks inside the body
            return;
        case ModeCount:
            break;
        }
        s->disconnectFromHost();
    }

    QTcpServer m_server;
};
