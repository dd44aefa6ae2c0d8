// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

class QTcpSocket;
class QTimer;

namespace pd::sim {

// One HTTP/1.1 request over its own connection: the simulator's one HTTP client, for the proxy's calls
// to its engines and the cluster's client load (the real proxy's httpx pool has no practical connection
// limit, unlike QNetworkAccessManager's six per host).
// The body is decoded (Content-Length, chunked or until close) and delivered read by read, so SSE
// events are relayed as they arrive and a coalesced read stays coalesced, as in the real proxy.
// Ends with exactly one of finished() or failed(); abort() ends it silently. Receivers must not
// delete the call synchronously from a slot (use deleteLater()).
class BackendCall final : public QObject {
    Q_OBJECT
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    BackendCall(QString host, int port, QByteArray method, QByteArray target, Headers headers,
                QByteArray body, QObject *parent = nullptr);
    ~BackendCall() override;

    // 0 (default) means no timeout: the real proxy's completion clients have none.
    void setTimeout(int milliseconds);
    void start();
    void abort();

    int status() const { return m_status; }
    QString hostPort() const;

Q_SIGNALS:
    void responseStarted(int status);          // status line and headers received
    void bodyRead(const QByteArray &data);      // decoded body bytes of one network read
    void finished();                            // the whole body arrived
    void failed(const QString &reason);         // connection error, timeout or cut-off body

private:
    // Moves what is buffered of the current length-delimited part (a body, a chunk) to `body`;
    // true once the part is complete.
    bool takeRemaining(QByteArray *body);
    enum class State { Connecting, Status, Headers, Length, ChunkSize, ChunkData, ChunkEnd, Trailers,
                       UntilClose, Done };

    void onConnected();
    void onReadyRead();
    void onDisconnected();
    void fail(const QString &reason);
    // Consumes m_buffer; appends decoded body bytes to *body. False on a protocol error.
    bool parse(QByteArray *body);
    void complete();

    QString m_host;
    int m_port;
    QByteArray m_method;
    QByteArray m_target;
    Headers m_headers;
    QByteArray m_body;
    QTcpSocket *m_socket = nullptr;
    QTimer *m_timer = nullptr;
    int m_timeoutMs = 0;
    QByteArray m_buffer;
    State m_state = State::Connecting;
    int m_status = 0;
    qint64 m_remaining = 0;
    bool m_chunked = false;
    bool m_hasLength = false;
    bool m_ended = false;
};

} // namespace pd::sim
