// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>

#include <functional>
#include <memory>
#include <unordered_map>

class QTcpServer;

// A small HTTP/1.1 server for the simulator: keep-alive, Content-Length bodies in, whole responses
// written with one write, chunked responses for SSE streams, TCP_NODELAY on accepted sockets.
// Accepted connections are plain non-blocking descriptors driven by QSocketNotifiers (on engine threads
// the epoll dispatcher), not QTcpSockets: requests are read() straight into the connection's buffer.
// An answer (head and body) or a chunk goes to the kernel with one sendmsg() from the caller's buffers
// when nothing of the connection is still queued; only what the kernel does not take at once is copied
// into the connection's output queue, written when the socket is writable. A body buffer may therefore
// be reused as soon as respond() returns. Linux only.
// Thread contract: an HttpServer and its responders live in the thread that owns the server object;
// handlers run there. Answering may happen later (timers) or never (a hung engine).
namespace pd::sim {

struct HttpConnection; // one accepted connection (httpserver.cpp)

inline const QByteArray kJsonContentType = QByteArrayLiteral("application/json");

struct HttpRequest {
    QByteArray method;              // "GET", "POST", ...
    QByteArray path;                // "/v1/models" (no query)
    QByteArray query;               // text after '?', may be empty
    QList<QPair<QByteArray, QByteArray>> headers; // names as received
    QByteArray body;

    // Case-insensitive header lookup; empty when absent.
    QByteArray header(QByteArrayView name) const;
};

struct HttpHeader {
    QByteArray name;
    QByteArray value;
};

// The way to answer one request. Shared by the server and the handler; answering a request whose
// client has gone is a no-op. Exactly one of respond() or beginChunked()..endChunked() per request.
class HttpResponder final : public QObject {
    Q_OBJECT
public:
    HttpResponder(std::shared_ptr<HttpConnection> connection, bool keepAlive);
    ~HttpResponder() override;

    void respond(int status, const QByteArray &contentType, const QByteArray &body,
                 const QList<HttpHeader> &extraHeaders = {});
    void beginChunked(int status, const QByteArray &contentType,
                      const QList<HttpHeader> &extraHeaders = {});
    void writeChunk(const QByteArray &data);
    void endChunked();
    // Close the connection without an answer (crash-like behaviour, truncated streams).
    void abort();
    // Close the connection after what was written so far, without ending a chunked body: the client
    // reads every chunk sent, then the connection ends mid-body (a worker lost mid-answer).
    void cutOff();

    bool isOpen() const;      // the client is still connected and the answer is not finished
    bool isAnswered() const;
    bool keepAlive() const { return m_keepAlive; }
    // "ip:port" of the client (for access logs); empty once it has gone.
    QByteArray peer() const;
    // Called with the status when the answer's head is written (uvicorn logs access at that moment).
    void setHeadObserver(std::function<void(int status)> observer) { m_headObserver = std::move(observer); }

Q_SIGNALS:
    void clientGone();        // the client closed the connection before the answer was finished
    void finished();          // the whole answer was written (or abandoned by abort())

private:
    friend class HttpServer;
    void writeHead(int status, const QByteArray &contentType, const QList<HttpHeader> &extraHeaders,
                   const QByteArray *body);
    // The parts, in order, straight to the socket (see the class comment).
    void send(std::initializer_list<QByteArrayView> parts);
    void finish();
    bool connected() const; // the connection is open and not closing

    std::shared_ptr<HttpConnection> m_connection;
    bool m_keepAlive = true;
    bool m_started = false;
    bool m_finished = false;
    bool m_headRequest = false; // HEAD: headers only
    std::function<void(int)> m_headObserver;
};

using HttpResponderPtr = std::shared_ptr<HttpResponder>;
using HttpHandler = std::function<void(const HttpRequest &, const HttpResponderPtr &)>;

class HttpServer final : public QObject {
    Q_OBJECT
public:
    explicit HttpServer(QObject *parent = nullptr);
    ~HttpServer() override;

    void setHandler(HttpHandler handler);
    // Port 0 picks a free port; port() tells which. Returns false (errorString()) when binding fails.
    bool listen(const QHostAddress &address, quint16 port);
    quint16 port() const;
    QString errorString() const;
    // Stops listening and drops every open connection (a crashed process looks like this).
    void close();
    bool isListening() const;

    // Requests above this size get 413 and the connection is closed. Default 16 MiB.
    void setMaxRequestBytes(qint64 bytes);

    // Stops accepting new connections but keeps the open ones (graceful shutdown).
    void stopListening();
    int connectionCount() const;
    // Connections with a request whose answer has not finished yet.
    int busyConnectionCount() const;

    // The standard reason phrase ("Not Found"); "Unknown" for codes the server does not know.
    static QByteArray reasonPhrase(int status);

private:
    friend class HttpResponder;
    void onIncomingConnection(qintptr fd);
    void onReadable(HttpConnection *connection);
    void onWritable(HttpConnection *connection);
    void processBuffered(const std::shared_ptr<HttpConnection> &connection);
    void rejectAndClose(const std::shared_ptr<HttpConnection> &connection, int status);
    // Closes the descriptor at once, dropping what is queued; the client of an unanswered request is gone.
    void closeConnection(HttpConnection *connection);
    // Closes once the queued bytes are written (at once when nothing is queued).
    void closeWhenFlushed(HttpConnection *connection);

    QTcpServer *m_server = nullptr;
    HttpHandler m_handler;
    qint64 m_maxRequestBytes = 16 * 1024 * 1024;
    std::unordered_map<HttpConnection *, std::shared_ptr<HttpConnection>> m_connections;
};

} // namespace pd::sim
