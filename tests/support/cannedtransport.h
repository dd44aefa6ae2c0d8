// SPDX-License-Identifier: MIT
#pragma once
// A QNetworkAccessManager that never opens a socket: for the clients that take a transport by constructor
// (ProxyClient, EngineProbe, WarmUpRun). Each request is answered from a script of canned replies (an
// HTTP status with headers and a body, a transport error, or silence) and recorded (method, URL, the
// request with its headers, the body sent).
//
// Replies behave like Qt's own as far as the console's clients can tell:
//   - nothing happens inside get()/post(): every step comes on a later turn of the event loop, so a
//     caller connects to the reply after sending, as with a real one;
//   - an answer: status and headers (metaDataChanged), then each body part (readyRead, then
//     downloadProgress), then finished; a failure: errorOccurred, then finished;
//   - abort() ends an unfinished reply at once, as Qt's does: the reply is closed (unread bytes are gone),
//     error OperationCanceledError "Operation canceled", then errorOccurred and finished, both inside
//     abort(); on a finished reply it does nothing;
//   - the transfer timeout of the request (QNetworkRequest::transferTimeout, else the manager's) aborts a
//     reply that receives nothing for that long, the way Qt 6.4 does (the same OperationCanceledError:
//     a client cannot tell it from its own abort). Silence without a timeout lasts until abort().
// The manager's own finished(QNetworkReply *) signal is not emitted; the console's clients listen to
// their replies.
//
// Lives in the test's thread; header-only, no moc.

#include <QBuffer>
#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <optional>
#include <utility>

namespace pd::test {

// One scripted answer.
struct CannedReply {
    int status = 200; // 0: no HTTP answer at all (error says why; NoError: silence)
    QByteArray reason = "OK";
    QList<std::pair<QByteArray, QByteArray>> headers;
    QList<QByteArray> parts; // the body, one part per turn of the event loop
    QNetworkReply::NetworkError error = QNetworkReply::NoError; // status 0: instead of an answer; else after the body
    QString errorText;
    bool ends = true; // false: after the body, nothing more (until the transfer timeout or an abort)

    // An HTTP answer with the whole body at once.
    static CannedReply http(int status, const QByteArray &body, const QByteArray &contentType = "application/json")
    {
        CannedReply r;
        r.status = status;
        r.reason = status == 200 ? QByteArray("OK") : QByteArray("Status ") + QByteArray::number(status);
        if (!contentType.isEmpty())
            r.headers.append({ "Content-Type", contentType });
        if (!body.isEmpty())
            r.parts.append(body);
        return r;
    }
    // A 200 whose body arrives in parts (an SSE stream).
    static CannedReply streamed(const QList<QByteArray> &parts)
    {
        CannedReply r = http(200, {}, "text/event-stream");
        r.parts = parts;
        return r;
    }
    // No HTTP answer: the connection failed.
    static CannedReply failure(QNetworkReply::NetworkError error, const QString &text)
    {
        CannedReply r;
        r.status = 0;
        r.reason.clear();
        r.error = error;
        r.errorText = text;
        return r;
    }
    static CannedReply refused()
    {
        return failure(QNetworkReply::ConnectionRefusedError, QStringLiteral("Connection refused"));
    }
    // Never a byte: the request's transfer timeout or an abort ends it.
    static CannedReply silence()
    {
        CannedReply r;
        r.status = 0;
        r.reason.clear();
        return r;
    }

    CannedReply &withHeader(const QByteArray &name, const QByteArray &value)
    {
        headers.append(std::make_pair(name, value));
        return *this;
    }
    // The body arrives, then nothing (a stalled stream).
    CannedReply &stalling()
    {
        ends = false;
        return *this;
    }
    // The body arrives, then the connection breaks.
    CannedReply &thenError(QNetworkReply::NetworkError e, const QString &text)
    {
        error = e;
        errorText = text;
        return *this;
    }
};

// What a client asked.
struct RecordedRequest {
    QByteArray method;
    QUrl url;
    QNetworkRequest request;
    QByteArray body;
    QByteArray header(const QByteArray &name) const { return request.rawHeader(name); }
    bool hasHeader(const QByteArray &name) const { return request.hasRawHeader(name); }
};

class CannedNetworkReply final : public QNetworkReply {
public:
    CannedNetworkReply(QNetworkAccessManager::Operation operation, const QNetworkRequest &request, CannedReply script,
        int transferTimeoutMs, QObject *parent)
        : QNetworkReply(parent)
        , m_script(std::move(script))
    {
        setOperation(operation);
        setRequest(request);
        setUrl(request.url());
        open(QIODevice::ReadOnly | QIODevice::Unbuffered);
        if (transferTimeoutMs > 0) {
            m_timeout.setSingleShot(true);
            m_timeout.setInterval(transferTimeoutMs);
            QObject::connect(&m_timeout, &QTimer::timeout, this, [this] { abort(); });
            m_timeout.start();
        }
        next();
    }

    void abort() override
    {
        if (isFinished())
            return;
        QIODevice::close();
        m_buffer.clear();
        m_read = 0;
        fail(OperationCanceledError, QStringLiteral("Operation canceled"));
    }

    qint64 bytesAvailable() const override { return (m_buffer.size() - m_read) + QNetworkReply::bytesAvailable(); }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 left = m_buffer.size() - m_read;
        if (left <= 0)
            return isFinished() ? -1 : 0;
        const qint64 n = std::min(left, maxSize);
        std::copy_n(m_buffer.constData() + m_read, n, data);
        m_read += n;
        if (m_read == m_buffer.size()) {
            m_buffer.clear();
            m_read = 0;
        }
        return n;
    }

private:
    void next()
    {
        QTimer::singleShot(0, this, [this] { step(); });
    }

    void step()
    {
        if (isFinished())
            return;
        QPointer<CannedNetworkReply> alive(this);
        if (m_step == 0) {
            ++m_step;
            if (m_script.status == 0) {
                if (m_script.error != NoError)
                    fail(m_script.error, m_script.errorText);
                return; // silence: the timeout or an abort ends it
            }
            setAttribute(QNetworkRequest::HttpStatusCodeAttribute, m_script.status);
            setAttribute(QNetworkRequest::HttpReasonPhraseAttribute, m_script.reason);
            for (const auto &[name, value] : m_script.headers)
                setRawHeader(name, value);
            restartTimeout();
            Q_EMIT metaDataChanged();
        } else if (m_step <= m_script.parts.size()) {
            const QByteArray &part = m_script.parts.at(m_step - 1);
            ++m_step;
            m_buffer += part;
            m_received += part.size();
            restartTimeout();
            Q_EMIT readyRead();
            if (!alive || isFinished())
                return;
            Q_EMIT downloadProgress(m_received, m_script.ends ? totalSize() : -1);
        } else {
            if (m_script.error != NoError)
                fail(m_script.error, m_script.errorText);
            else if (m_script.ends)
                succeed();
            return; // else stalled
        }
        if (alive && !isFinished())
            next();
    }

    qint64 totalSize() const
    {
        qint64 total = 0;
        for (const QByteArray &p : m_script.parts)
            total += p.size();
        return total;
    }

    void restartTimeout()
    {
        if (m_timeout.interval() > 0)
            m_timeout.start();
    }

    void succeed()
    {
        m_timeout.stop();
        setFinished(true);
        Q_EMIT finished();
    }

    void fail(NetworkError error, const QString &text)
    {
        m_timeout.stop();
        setError(error, text);
        setFinished(true);
        QPointer<CannedNetworkReply> alive(this);
        Q_EMIT errorOccurred(error);
        if (alive)
            Q_EMIT finished();
    }

    CannedReply m_script;
    QTimer m_timeout;
    QByteArray m_buffer;
    qint64 m_read = 0;
    qint64 m_received = 0;
    qsizetype m_step = 0;
};

class CannedTransport final : public QNetworkAccessManager {
public:
    using QNetworkAccessManager::QNetworkAccessManager;

    // Answers requests for `target` with `reply`, after the replies scripted before it for the same target;
    // the last one left answers every later request. `target` is a path ("/healthcheck": any host) or a
    // whole URL without query ("http://127.0.0.1:9001/metrics"), which wins over a path. `method` is
    // "GET", "POST", ... or "*" for any.
    void script(const QByteArray &method, const QString &target, const CannedReply &reply)
    {
        for (Entry &e : m_script) {
            if (e.method == method && e.target == target) {
                e.replies.append(reply);
                return;
            }
        }
        m_script.append(Entry { method, target, { reply } });
    }

    const QList<RecordedRequest> &requests() const { return m_requests; }
    // The requests whose URL path is `path`.
    QList<RecordedRequest> requestsTo(const QString &path) const
    {
        QList<RecordedRequest> out;
        for (const RecordedRequest &r : m_requests)
            if (r.url.path() == path)
                out.append(r);
        return out;
    }
    // Requests nothing was scripted for ("GET http://..."); they failed with ProtocolUnknownError.
    const QStringList &unscripted() const { return m_unscripted; }
    // Replies created and not finished yet; the most there ever were at once.
    int inFlight() const { return m_inFlight; }
    int maxInFlight() const { return m_maxInFlight; }

protected:
    QNetworkReply *createRequest(Operation op, const QNetworkRequest &request, QIODevice *outgoingData) override
    {
        RecordedRequest r;
        r.method = methodOf(op, request);
        r.url = request.url();
        r.request = request;
        if (outgoingData)
            r.body = outgoingData->readAll();
        m_requests.append(r);

        CannedReply answer;
        if (std::optional<CannedReply> scripted = take(r.method, r.url)) {
            answer = std::move(*scripted);
        } else {
            const QString what = QString::fromLatin1(r.method) + QLatin1Char(' ') + r.url.toString();
            m_unscripted.append(what);
            answer = CannedReply::failure(
                QNetworkReply::ProtocolUnknownError, QStringLiteral("CannedTransport: nothing scripted for ") + what);
        }
        const int timeout = request.transferTimeout() > 0 ? request.transferTimeout() : transferTimeout();
        auto *reply = new CannedNetworkReply(op, request, std::move(answer), timeout, this);
        m_maxInFlight = std::max(m_maxInFlight, ++m_inFlight);
        QObject::connect(reply, &QNetworkReply::finished, this, [this] { --m_inFlight; });
        return reply;
    }

private:
    struct Entry {
        QByteArray method;
        QString target;
        QList<CannedReply> replies;
    };

    static QByteArray methodOf(Operation op, const QNetworkRequest &request)
    {
        switch (op) {
        case HeadOperation:
            return "HEAD";
        case GetOperation:
            return "GET";
        case PutOperation:
            return "PUT";
        case PostOperation:
            return "POST";
        case DeleteOperation:
            return "DELETE";
        case CustomOperation:
            return request.attribute(QNetworkRequest::CustomVerbAttribute).toByteArray();
        case UnknownOperation:
            break;
        }
        return "UNKNOWN";
    }

    std::optional<CannedReply> take(const QByteArray &method, const QUrl &url)
    {
        const QString whole = url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
        const QString path = url.path();
        Entry *found = nullptr;
        for (const QString &target : { whole, path }) {
            for (Entry &e : m_script) {
                if (e.target == target && (e.method == method || e.method == "*")) {
                    found = &e;
                    break;
                }
            }
            if (found)
                break;
        }
        if (!found)
            return std::nullopt;
        return found->replies.size() > 1 ? found->replies.takeFirst() : found->replies.first();
    }

    QList<Entry> m_script;
    QList<RecordedRequest> m_requests;
    QStringList m_unscripted;
    int m_inFlight = 0;
    int m_maxInFlight = 0;
};

} // namespace pd::test
