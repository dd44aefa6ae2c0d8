// SPDX-License-Identifier: MIT
#include "httpserver.h"

#include <QSocketNotifier>
#include <QTcpServer>
#include <QVarLengthArray>

#include <charconv>

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace pd::sim {

namespace {

constexpr qsizetype kMaxHeaderBytes = 64 * 1024;

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-':
    case '.': case '^': case '_': case '`': case '|': case '~':
        return true;
    default:
        return false;
    }
}

bool isToken(QByteArrayView v)
{
    if (v.isEmpty())
        return false;
    for (char c : v) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

bool equalsIgnoreCase(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

bool containsToken(QByteArrayView list, QByteArrayView token)
{
    while (!list.isEmpty()) {
        const qsizetype comma = list.indexOf(',');
        const QByteArrayView item = trimmed(comma < 0 ? list : list.first(comma));
        if (equalsIgnoreCase(item, token))
            return true;
        if (comma < 0)
            break;
        list = list.sliced(comma + 1);
    }
    return false;
}

// The outcome of parsing the front of a connection's buffer.
struct ParseResult {
    enum class Kind { Incomplete, Complete, Error } kind = Kind::Incomplete;
    int errorStatus = 400;
    qsizetype consumed = 0;      // bytes of the buffer the request occupies
    HttpRequest request;
    bool keepAlive = true;
    bool expectContinue = false; // headers complete, body missing, client waits for 100
};

ParseResult parseRequest(const QByteArray &buffer, qint64 maxRequestBytes)
{
    ParseResult r;
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0) {
        if (buffer.size() > kMaxHeaderBytes) {
            r.kind = ParseResult::Kind::Error;
            r.errorStatus = 431;
        }
        // A client that sends bare LF line ends or binary garbage: fail fast rather than wait.
        const qsizetype firstLf = buffer.indexOf('\n');
        if (firstLf >= 0 && (firstLf == 0 || buffer.at(firstLf - 1) != '\r'))
            r.kind = ParseResult::Kind::Error;
        return r;
    }
    if (headerEnd > kMaxHeaderBytes) {
        r.kind = ParseResult::Kind::Error;
        r.errorStatus = 431;
        return r;
    }
    const QByteArrayView head(buffer.constData(), headerEnd);
    auto fail = [&r](int status) {
        r.kind = ParseResult::Kind::Error;
        r.errorStatus = status;
        return r;
    };

    // Request line: METHOD SP target SP HTTP/1.x
    qsizetype lineEnd = head.indexOf("\r\n");
    const QByteArrayView requestLine = lineEnd < 0 ? head : head.first(lineEnd);
    const qsizetype sp1 = requestLine.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : requestLine.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0 || requestLine.indexOf(' ', sp2 + 1) >= 0)
        return fail(400);
    const QByteArrayView method = requestLine.first(sp1);
    const QByteArrayView target = requestLine.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = requestLine.sliced(sp2 + 1);
    if (!isToken(method) || target.isEmpty() || target.front() != '/')
        return fail(400);
    for (char c : target) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
            return fail(400);
    }
    bool http10 = false;
    if (version == "HTTP/1.0")
        http10 = true;
    else if (version != "HTTP/1.1")
        return version.startsWith("HTTP/") ? fail(505) : fail(400);

    r.request.method = method.toByteArray();
    const qsizetype q = target.indexOf('?');
    r.request.path = (q < 0 ? target : target.first(q)).toByteArray();
    if (q >= 0)
        r.request.query = target.sliced(q + 1).toByteArray();

    // Header fields
    qint64 contentLength = 0;
    bool haveLength = false;
    QByteArrayView connection;
    QByteArrayView expect;
    QByteArrayView rest = lineEnd < 0 ? QByteArrayView() : head.sliced(lineEnd + 2);
    while (!rest.isEmpty()) {
        lineEnd = rest.indexOf("\r\n");
        const QByteArrayView line = lineEnd < 0 ? rest : rest.first(lineEnd);
        rest = lineEnd < 0 ? QByteArrayView() : rest.sliced(lineEnd + 2);
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return fail(400);
        const QByteArrayView name = line.first(colon);
        if (!isToken(name))
            return fail(400);
        const QByteArrayView value = trimmed(line.sliced(colon + 1));
        for (char c : value) {
            if (c == '\r' || c == '\n' || c == '\0')
                return fail(400);
        }
        if (equalsIgnoreCase(name, "content-length")) {
            qint64 n = -1;
            const auto [ptr, ec] = std::from_chars(value.begin(), value.end(), n);
            if (ec != std::errc() || ptr != value.end() || n < 0 || value.isEmpty())
                return fail(400);
            if (haveLength && n != contentLength)
                return fail(400);
            contentLength = n;
            haveLength = true;
        } else if (equalsIgnoreCase(name, "transfer-encoding")) {
            return fail(501); // the simulator's clients send Content-Length bodies
        } else if (equalsIgnoreCase(name, "connection")) {
            connection = value;
        } else if (equalsIgnoreCase(name, "expect")) {
            expect = value;
        }
        r.request.headers.append({name.toByteArray(), value.toByteArray()});
    }
    if (contentLength > maxRequestBytes)
        return fail(413);

    r.keepAlive = http10 ? containsToken(connection, "keep-alive") : !containsToken(connection, "close");
    const qsizetype bodyStart = headerEnd + 4;
    if (buffer.size() - bodyStart < contentLength) {
        r.kind = ParseResult::Kind::Incomplete;
        r.expectContinue = !http10 && equalsIgnoreCase(expect, "100-continue");
        r.request = {};
        return r;
    }
    r.request.body = buffer.mid(bodyStart, contentLength);
    r.consumed = bodyStart + contentLength;
    r.kind = ParseResult::Kind::Complete;
    return r;
}

using HeadBuffer = QVarLengthArray<char, 512>;

void append(HeadBuffer &out, QByteArrayView text)
{
    out.append(text.data(), text.size());
}

void appendNumber(HeadBuffer &out, qint64 n)
{
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, n);
    out.append(buf, res.ptr - buf);
}

} // namespace

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return h.second;
    }
    return {};
}

// ---------------------------------------------------------------------------------------------------

// One accepted connection. The server holds it while it is open; responders hold it too, so that one
// outliving its connection (or the server) finds the descriptor closed rather than freed memory.
struct HttpConnection {
    HttpServer *server = nullptr;
    int fd = -1; // -1 once closed
    sockaddr_storage peerAddress {};
    QByteArray peerText; // "ip:port", made on first use
    QSocketNotifier *readNotifier = nullptr;
    QSocketNotifier *writeNotifier = nullptr;
    QByteArray buffer; // received, not yet parsed
    QByteArray output; // answered bytes the kernel did not take yet, from outputOffset
    qsizetype outputOffset = 0;
    HttpResponderPtr current; // the request being answered; later ones wait in the buffer
    bool continueSent = false;
    bool closing = false; // no further requests are read (Connection: close, error)
    bool processing = false; // re-entrancy guard for synchronous answers
    bool closeWhenFlushed = false; // close once output is written (disconnectFromHost)
    bool writeFailed = false; // the kernel refused a write; the read side sees the end

    bool isOpen() const { return fd >= 0; }
    bool hasQueued() const { return outputOffset < output.size(); }
};

namespace {

// The parts, in order: one sendmsg() when nothing is queued, the rest copied into the queue.
void sendParts(HttpConnection &conn, std::initializer_list<QByteArrayView> parts)
{
    if (!conn.isOpen() || conn.writeFailed)
        return;
    qsizetype sent = 0;
    if (!conn.hasQueued()) {
        iovec iov[4];
        int count = 0;
        Q_ASSERT(parts.size() <= std::size(iov));
        for (QByteArrayView part : parts) {
            if (!part.isEmpty())
                iov[count++] = { const_cast<char *>(part.data()), std::size_t(part.size()) };
        }
        if (count == 0)
            return;
        msghdr message {};
        message.msg_iov = iov;
        message.msg_iovlen = std::size_t(count);
        ssize_t n;
        do {
            n = ::sendmsg(conn.fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
        } while (n < 0 && errno == EINTR);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            // Reset or shut down: nothing more goes out; the read notifier sees the end and closes.
            conn.writeFailed = true;
            return;
        }
        sent = n > 0 ? n : 0;
        conn.output.clear();
        conn.outputOffset = 0;
    }
    bool queued = false;
    for (QByteArrayView part : parts) {
        if (sent >= part.size()) {
            sent -= part.size();
            continue;
        }
        conn.output.append(part.data() + sent, part.size() - sent);
        sent = 0;
        queued = true;
    }
    if (queued && conn.writeNotifier)
        conn.writeNotifier->setEnabled(true);
}

// A QTcpServer that hands over the accepted descriptor instead of making a QTcpSocket of it.
class DescriptorServer final : public QTcpServer {
public:
    DescriptorServer(std::function<void(qintptr)> onIncoming, QObject *parent)
        : QTcpServer(parent)
        , m_onIncoming(std::move(onIncoming))
    {
    }

protected:
    void incomingConnection(qintptr fd) override { m_onIncoming(fd); }

private:
    std::function<void(qintptr)> m_onIncoming;
};

} // namespace

HttpResponder::HttpResponder(std::shared_ptr<HttpConnection> connection, bool keepAlive)
    : m_connection(std::move(connection))
    , m_keepAlive(keepAlive)
{
}

HttpResponder::~HttpResponder() = default;

bool HttpResponder::connected() const
{
    return m_connection && m_connection->isOpen() && !m_connection->closeWhenFlushed;
}

void HttpResponder::writeHead(int status, const QByteArray &contentType,
                              const QList<HttpHeader> &extraHeaders, const QByteArray *body)
{
    HeadBuffer head;
    append(head, "HTTP/1.1 ");
    appendNumber(head, status);
    append(head, " ");
    append(head, HttpServer::reasonPhrase(status));
    append(head, "\r\n");
    if (!contentType.isEmpty()) {
        append(head, "content-type: ");
        append(head, contentType);
        append(head, "\r\n");
    }
    if (body) {
        append(head, "content-length: ");
        appendNumber(head, body->size());
        append(head, "\r\n");
    } else {
        append(head, "transfer-encoding: chunked\r\n");
    }
    for (const auto &h : extraHeaders) {
        append(head, h.name);
        append(head, ": ");
        append(head, h.value);
        append(head, "\r\n");
    }
    if (!m_keepAlive)
        append(head, "connection: close\r\n");
    append(head, "\r\n");
    send({ QByteArrayView(head.constData(), head.size()),
        body && !m_headRequest ? QByteArrayView(*body) : QByteArrayView() });
    if (m_headObserver)
        m_headObserver(status);
}

void HttpResponder::send(std::initializer_list<QByteArrayView> parts)
{
    if (m_connection)
        sendParts(*m_connection, parts);
}

QByteArray HttpResponder::peer() const
{
    if (!m_connection || !m_connection->isOpen())
        return {};
    HttpConnection &conn = *m_connection;
    if (conn.peerText.isEmpty()) {
        const QHostAddress address(reinterpret_cast<const sockaddr *>(&conn.peerAddress));
        quint16 port = 0;
        if (conn.peerAddress.ss_family == AF_INET)
            port = ntohs(reinterpret_cast<const sockaddr_in *>(&conn.peerAddress)->sin_port);
        else if (conn.peerAddress.ss_family == AF_INET6)
            port = ntohs(reinterpret_cast<const sockaddr_in6 *>(&conn.peerAddress)->sin6_port);
        conn.peerText = address.toString().toUtf8() + ':' + QByteArray::number(port);
    }
    return conn.peerText;
}

void HttpResponder::respond(int status, const QByteArray &contentType, const QByteArray &body,
                            const QList<HttpHeader> &extraHeaders)
{
    if (m_started || m_finished)
        return;
    m_started = true;
    if (connected())
        writeHead(status, contentType, extraHeaders, &body);
    finish();
}

void HttpResponder::beginChunked(int status, const QByteArray &contentType,
                                 const QList<HttpHeader> &extraHeaders)
{
    if (m_started || m_finished)
        return;
    m_started = true;
    if (connected())
        writeHead(status, contentType, extraHeaders, nullptr);
}

void HttpResponder::writeChunk(const QByteArray &data)
{
    if (!m_started || m_finished || data.isEmpty() || !isOpen())
        return;
    char size[24];
    const auto res = std::to_chars(size, size + sizeof size - 2, data.size(), 16);
    char *end = res.ptr;
    *end++ = '\r';
    *end++ = '\n';
    send({ QByteArrayView(size, end - size), data, "\r\n" });
}

void HttpResponder::endChunked()
{
    if (!m_started || m_finished)
        return;
    if (isOpen())
        send({ "0\r\n\r\n" });
    finish();
}

void HttpResponder::abort()
{
    if (m_finished)
        return;
    m_finished = true;
    m_keepAlive = false;
    const std::shared_ptr<HttpConnection> conn = m_connection;
    const HttpResponderPtr self = conn && conn->current.get() == this ? conn->current : nullptr;
    if (conn && conn->isOpen())
        conn->server->closeConnection(conn.get());
    Q_EMIT finished();
}

void HttpResponder::cutOff()
{
    if (m_finished)
        return;
    m_finished = true;
    m_keepAlive = false;
    const std::shared_ptr<HttpConnection> conn = m_connection;
    const HttpResponderPtr self = conn && conn->current.get() == this ? conn->current : nullptr;
    if (conn && conn->isOpen())
        conn->server->closeWhenFlushed(conn.get()); // after the queued bytes are written
    Q_EMIT finished();
}

bool HttpResponder::isOpen() const
{
    return !m_finished && connected();
}

bool HttpResponder::isAnswered() const
{
    return m_finished;
}

void HttpResponder::finish()
{
    m_finished = true;
    const std::shared_ptr<HttpConnection> conn = m_connection;
    // The server may drop its reference to this responder while it reads the next request.
    const HttpResponderPtr self = conn && conn->current.get() == this ? conn->current : nullptr;
    if (!m_keepAlive && conn && conn->isOpen())
        conn->server->closeWhenFlushed(conn.get()); // after the queued bytes are written
    if (self && conn->isOpen())
        conn->server->processBuffered(conn); // the next pipelined request
    Q_EMIT finished();
}

// ---------------------------------------------------------------------------------------------------

HttpServer::HttpServer(QObject *parent)
    : QObject(parent)
    , m_server(new DescriptorServer([this](qintptr fd) { onIncomingConnection(fd); }, this))
{
}

HttpServer::~HttpServer()
{
    close();
}

void HttpServer::setHandler(HttpHandler handler)
{
    m_handler = std::move(handler);
}

bool HttpServer::listen(const QHostAddress &address, quint16 port)
{
    if (m_server->isListening())
        m_server->close();
    return m_server->listen(address, port);
}

quint16 HttpServer::port() const
{
    return m_server->serverPort();
}

QString HttpServer::errorString() const
{
    return m_server->errorString();
}

void HttpServer::close()
{
    m_server->close();
    const auto connections = m_connections; // clientGone handlers may call back
    for (const auto &[raw, conn] : connections) {
        // What was already answered reaches the client, as from a real process.
        while (conn->isOpen() && conn->hasQueued() && !conn->writeFailed) {
            const ssize_t n = ::send(conn->fd, conn->output.constData() + conn->outputOffset,
                std::size_t(conn->output.size() - conn->outputOffset), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0)
                conn->outputOffset += n;
            else if (n < 0 && errno == EINTR)
                continue;
            else
                break;
        }
        closeConnection(raw);
    }
}

bool HttpServer::isListening() const
{
    return m_server->isListening();
}

void HttpServer::setMaxRequestBytes(qint64 bytes)
{
    m_maxRequestBytes = bytes;
}

void HttpServer::stopListening()
{
    m_server->close();
}

int HttpServer::connectionCount() const
{
    return int(m_connections.size());
}

int HttpServer::busyConnectionCount() const
{
    int n = 0;
    for (const auto &[raw, conn] : m_connections) {
        if (conn->current && !conn->current->isAnswered())
            ++n;
    }
    return n;
}

QByteArray HttpServer::reasonPhrase(int status)
{
    switch (status) {
    case 100: return QByteArrayLiteral("Continue");
    case 200: return QByteArrayLiteral("OK");
    case 201: return QByteArrayLiteral("Created");
    case 204: return QByteArrayLiteral("No Content");
    case 400: return QByteArrayLiteral("Bad Request");
    case 401: return QByteArrayLiteral("Unauthorized");
    case 403: return QByteArrayLiteral("Forbidden");
    case 404: return QByteArrayLiteral("Not Found");
    case 405: return QByteArrayLiteral("Method Not Allowed");
    case 408: return QByteArrayLiteral("Request Timeout");
    case 409: return QByteArrayLiteral("Conflict");
    case 413: return QByteArrayLiteral("Payload Too Large");
    case 422: return QByteArrayLiteral("Unprocessable Entity");
    case 429: return QByteArrayLiteral("Too Many Requests");
    case 431: return QByteArrayLiteral("Request Header Fields Too Large");
    case 500: return QByteArrayLiteral("Internal Server Error");
    case 501: return QByteArrayLiteral("Not Implemented");
    case 502: return QByteArrayLiteral("Bad Gateway");
    case 503: return QByteArrayLiteral("Service Unavailable");
    case 504: return QByteArrayLiteral("Gateway Timeout");
    case 505: return QByteArrayLiteral("HTTP Version Not Supported");
    default: return QByteArrayLiteral("Unknown");
    }
}

void HttpServer::onIncomingConnection(qintptr descriptor)
{
    const int fd = int(descriptor);
    auto conn = std::make_shared<HttpConnection>();
    socklen_t length = sizeof conn->peerAddress;
    if (::getpeername(fd, reinterpret_cast<sockaddr *>(&conn->peerAddress), &length) != 0) {
        ::close(fd); // already gone
        return;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, (flags < 0 ? 0 : flags) | O_NONBLOCK);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    conn->server = this;
    conn->fd = fd;
    HttpConnection *raw = conn.get();
    conn->readNotifier = new QSocketNotifier(QSocketNotifier::Read, this);
    conn->readNotifier->setSocket(fd);
    conn->writeNotifier = new QSocketNotifier(QSocketNotifier::Write, this);
    conn->writeNotifier->setSocket(fd);
    connect(conn->readNotifier, &QSocketNotifier::activated, this, [this, raw] { onReadable(raw); });
    connect(conn->writeNotifier, &QSocketNotifier::activated, this, [this, raw] { onWritable(raw); });
    m_connections.emplace(raw, std::move(conn));
    raw->readNotifier->setEnabled(true);
}

void HttpServer::onReadable(HttpConnection *raw)
{
    const auto it = m_connections.find(raw);
    if (it == m_connections.end())
        return;
    const std::shared_ptr<HttpConnection> conn = it->second;
    bool received = false;
    bool ended = false;
    for (;;) {
        char chunk[16384];
        const ssize_t n = ::read(conn->fd, chunk, sizeof chunk);
        if (n > 0) {
            if (!conn->closing) { // whatever follows a closing request is discarded
                conn->buffer.append(chunk, n);
                received = true;
            }
            if (std::size_t(n) < sizeof chunk)
                break;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        ended = true; // end of stream or an error: the client has gone
        break;
    }
    if (received)
        processBuffered(conn);
    if (ended && conn->isOpen())
        closeConnection(conn.get());
}

void HttpServer::onWritable(HttpConnection *raw)
{
    const auto it = m_connections.find(raw);
    if (it == m_connections.end())
        return;
    HttpConnection &conn = *it->second;
    while (conn.hasQueued()) {
        const ssize_t n = ::send(conn.fd, conn.output.constData() + conn.outputOffset,
            std::size_t(conn.output.size() - conn.outputOffset), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            conn.outputOffset += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        closeConnection(raw); // the client has gone
        return;
    }
    conn.output.clear();
    conn.outputOffset = 0;
    conn.writeNotifier->setEnabled(false);
    if (conn.closeWhenFlushed)
        closeConnection(raw);
}

void HttpServer::closeConnection(HttpConnection *raw)
{
    const auto it = m_connections.find(raw);
    if (it == m_connections.end())
        return;
    const std::shared_ptr<HttpConnection> conn = std::move(it->second);
    m_connections.erase(it);
    // The notifiers may be the very ones whose activation is running: they go later.
    conn->readNotifier->setEnabled(false);
    conn->writeNotifier->setEnabled(false);
    conn->readNotifier->deleteLater();
    conn->writeNotifier->deleteLater();
    conn->readNotifier = nullptr;
    conn->writeNotifier = nullptr;
    ::close(conn->fd);
    conn->fd = -1;
    conn->server = nullptr;
    conn->buffer.clear();
    conn->output.clear();
    conn->outputOffset = 0;
    const HttpResponderPtr current = std::move(conn->current);
    if (current && !current->isAnswered())
        Q_EMIT current->clientGone();
}

void HttpServer::closeWhenFlushed(HttpConnection *raw)
{
    if (!raw->isOpen())
        return;
    if (raw->hasQueued() && !raw->writeFailed) {
        raw->closeWhenFlushed = true;
        raw->closing = true;
        return;
    }
    closeConnection(raw);
}

void HttpServer::rejectAndClose(const std::shared_ptr<HttpConnection> &conn, int status)
{
    conn->closing = true;
    conn->buffer.clear();
    HttpResponder responder(conn, false);
    responder.respond(status, QByteArrayLiteral("application/json"),
                      QByteArrayLiteral("{\"detail\":\"") + reasonPhrase(status)
                          + QByteArrayLiteral("\"}"));
}

void HttpServer::processBuffered(const std::shared_ptr<HttpConnection> &connection)
{
    const std::shared_ptr<HttpConnection> conn = connection; // alive while handlers run
    if (!conn->isOpen() || conn->processing)
        return;
    conn->processing = true;
    while (conn->isOpen() && !conn->closing && !conn->buffer.isEmpty()
        && (!conn->current || conn->current->isAnswered())) {
        conn->current.reset();
        if (conn->buffer.size() > m_maxRequestBytes + kMaxHeaderBytes) {
            rejectAndClose(conn, 413);
            break;
        }
        ParseResult parsed = parseRequest(conn->buffer, m_maxRequestBytes);
        if (parsed.kind == ParseResult::Kind::Error) {
            rejectAndClose(conn, parsed.errorStatus);
            break;
        }
        if (parsed.kind == ParseResult::Kind::Incomplete) {
            if (parsed.expectContinue && !conn->continueSent) {
                conn->continueSent = true;
                sendParts(*conn, { "HTTP/1.1 100 Continue\r\n\r\n" });
            }
            break;
        }
        conn->buffer.remove(0, parsed.consumed);
        conn->continueSent = false;
        if (!parsed.keepAlive) {
            conn->closing = true;
            conn->buffer.clear();
        }
        auto responder = std::make_shared<HttpResponder>(conn, parsed.keepAlive);
        responder->m_headRequest = parsed.request.method == "HEAD";
        conn->current = responder;
        if (m_handler)
            m_handler(parsed.request, responder);
        else
            responder->respond(
                404, QByteArrayLiteral("application/json"), QByteArrayLiteral("{\"detail\":\"Not Found\"}"));
    }
    conn->processing = false;
}

} // namespace pd::sim
