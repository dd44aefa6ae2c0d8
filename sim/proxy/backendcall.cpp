// SPDX-License-Identifier: MIT
#include "backendcall.h"

#include <QTcpSocket>
#include <QTimer>

namespace pd::sim {

BackendCall::BackendCall(QString host, int port, QByteArray method, QByteArray target, Headers headers,
                         QByteArray body, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_port(port)
    , m_method(std::move(method))
    , m_target(std::move(target))
    , m_headers(std::move(headers))
    , m_body(std::move(body))
{
}

BackendCall::~BackendCall()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

void BackendCall::setTimeout(int milliseconds)
{
    m_timeoutMs = milliseconds;
}

QString BackendCall::hostPort() const
{
    return m_host + QLatin1Char(':') + QString::number(m_port);
}

void BackendCall::start()
{
    if (m_timeoutMs > 0) {
        m_timer = new QTimer(this);
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, [this] { fail(QStringLiteral("timed out")); });
        m_timer->start(m_timeoutMs);
    }
    if (m_port <= 0 || m_port > 65535) {
        // Defer so that the caller has connected its slots.
        QTimer::singleShot(0, this, [this] { fail(QStringLiteral("Invalid port")); });
        return;
    }
    m_socket = new QTcpSocket(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::connected, this, &BackendCall::onConnected);
    connect(m_socket, &QTcpSocket::readyRead, this, &BackendCall::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &BackendCall::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        if (error == QAbstractSocket::RemoteHostClosedError)
            return; // handled by disconnected()
        if (m_state == State::Connecting)
            fail(QStringLiteral("All connection attempts failed: ") + m_socket->errorString());
        else
            onDisconnected();
    });
    m_socket->connectToHost(m_host, quint16(m_port));
}

void BackendCall::abort()
{
    m_ended = true;
    if (m_timer)
        m_timer->stop();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

void BackendCall::onConnected()
{
    m_state = State::Status;
    QByteArray request = m_method + ' ' + m_target + " HTTP/1.1\r\nHost: " + m_host.toUtf8() + ':'
        + QByteArray::number(m_port) + "\r\nAccept: */*\r\nConnection: close\r\n";
    for (const auto &[name, value] : std::as_const(m_headers))
        request += name + ": " + value + "\r\n";
    if (!m_body.isEmpty() || m_method == "POST")
        request += "Content-Length: " + QByteArray::number(m_body.size()) + "\r\n";
    request += "\r\n" + m_body;
    m_socket->write(request);
}

void BackendCall::onReadyRead()
{
    if (m_ended)
        return;
    m_buffer += m_socket->readAll();
    QByteArray body;
    const State before = m_state;
    if (!parse(&body)) {
        fail(QStringLiteral("invalid HTTP response"));
        return;
    }
    if (before <= State::Headers && m_state > State::Headers) {
        Q_EMIT responseStarted(m_status);
        if (m_ended)
            return;
    }
    if (!body.isEmpty()) {
        Q_EMIT bodyRead(body);
        if (m_ended)
            return;
    }
    if (m_state == State::Done)
        complete();
}

void BackendCall::onDisconnected()
{
    if (m_ended)
        return;
    if (m_state == State::UntilClose) {
        m_state = State::Done;
        complete();
        return;
    }
    if (m_state == State::Done)
        return;
    fail(m_state <= State::Headers ? QStringLiteral("Server disconnected without sending a response.")
                                   : QStringLiteral("peer closed connection without sending complete message body"));
}

void BackendCall::fail(const QString &reason)
{
    if (m_ended)
        return;
    abort();
    Q_EMIT failed(reason);
}

void BackendCall::complete()
{
    if (m_ended)
        return;
    abort();
    Q_EMIT finished();
}

bool BackendCall::takeRemaining(QByteArray *body)
{
    const qint64 n = std::min<qint64>(m_remaining, m_buffer.size());
    body->append(m_buffer.left(n));
    m_buffer.remove(0, n);
    m_remaining -= n;
    return m_remaining == 0;
}

bool BackendCall::parse(QByteArray *body)
{
    for (;;) {
        switch (m_state) {
        case State::Connecting:
        case State::Done:
            return true;
        case State::Status: {
            const qsizetype eol = m_buffer.indexOf("\r\n");
            if (eol < 0)
                return m_buffer.size() < 65536;
            const QList<QByteArray> parts = m_buffer.left(eol).split(' ');
            m_buffer.remove(0, eol + 2);
            if (parts.size() < 2 || !parts.at(0).startsWith("HTTP/1."))
                return false;
            bool ok = false;
            m_status = parts.at(1).toInt(&ok);
            if (!ok)
                return false;
            m_state = State::Headers;
            break;
        }
        case State::Headers: {
            const qsizetype eol = m_buffer.indexOf("\r\n");
            if (eol < 0)
                return m_buffer.size() < 65536;
            const QByteArray line = m_buffer.left(eol);
            m_buffer.remove(0, eol + 2);
            if (!line.isEmpty()) {
                const qsizetype colon = line.indexOf(':');
                if (colon <= 0)
                    return false;
                const QByteArray name = line.left(colon).trimmed().toLower();
                const QByteArray value = line.mid(colon + 1).trimmed();
                if (name == "transfer-encoding" && value.toLower().contains("chunked"))
                    m_chunked = true;
                if (name == "content-length") {
                    bool ok = false;
                    m_remaining = value.toLongLong(&ok);
                    if (!ok || m_remaining < 0)
                        return false;
                    m_hasLength = true;
                }
                break;
            }
            const bool noBody = m_method == "HEAD" || m_status == 204 || m_status == 304
                || (m_status >= 100 && m_status < 200);
            if (m_status >= 100 && m_status < 200) {
                m_state = State::Status; // interim response
                break;
            }
            if (noBody || (!m_chunked && m_hasLength && m_remaining == 0))
                m_state = State::Done;
            else if (m_chunked)
                m_state = State::ChunkSize;
            else if (m_hasLength)
                m_state = State::Length;
            else
                m_state = State::UntilClose;
            break;
        }
        case State::Length:
            if (!takeRemaining(body))
                return true;
            m_state = State::Done;
            break;
        case State::UntilClose:
            body->append(m_buffer);
            m_buffer.clear();
            return true;
        case State::ChunkSize: {
            const qsizetype eol = m_buffer.indexOf("\r\n");
            if (eol < 0)
                return m_buffer.size() < 1024;
            QByteArray sizeText = m_buffer.left(eol);
            m_buffer.remove(0, eol + 2);
            if (const qsizetype semi = sizeText.indexOf(';'); semi >= 0)
                sizeText.truncate(semi);
            bool ok = false;
            m_remaining = sizeText.trimmed().toLongLong(&ok, 16);
            if (!ok || m_remaining < 0)
                return false;
            m_state = m_remaining == 0 ? State::Trailers : State::ChunkData;
            break;
        }
        case State::ChunkData:
            if (!takeRemaining(body))
                return true;
            m_state = State::ChunkEnd;
            break;
        case State::ChunkEnd:
            if (m_buffer.size() < 2)
                return true;
            if (!m_buffer.startsWith("\r\n"))
                return false;
            m_buffer.remove(0, 2);
            m_state = State::ChunkSize;
            break;
        case State::Trailers: {
            const qsizetype eol = m_buffer.indexOf("\r\n");
            if (eol < 0)
                return m_buffer.size() < 65536; // a trailer line is bounded like a header line
            const bool last = eol == 0;
            m_buffer.remove(0, eol + 2);
            if (last)
                m_state = State::Done;
            break;
        }
        }
    }
}

} // namespace pd::sim
