// SPDX-License-Identifier: MIT
#pragma once

#include "http/httpserver.h"
#include "proxylog.h"
#include "proxyoptions.h"
#include "proxyscheduler.h"
#include "proxytext.h"

#include <QObject>
#include <QPointer>

namespace pd::sim {

class BackendCall;

// One client request on /v1/completions or /v1/chat/completions (spec §2.5): pick a prefiller, send
// the prefill copy (max_tokens 1, kv_transfer_params do_remote_decode), retry on the same instance,
// then pick a decoder, commit 200 + chunked headers and relay the decoder's bytes read by read with
// the cached_tokens rewrite. Loads and request_num follow §5.5. Emits done() once; the owner deletes
// it later. The recompute path (§2.5 step 13) is not simulated.
class CompletionRelay final : public QObject {
    Q_OBJECT
public:
    struct Settings {
        ProxyGeneration generation = ProxyGeneration::Main;
        int maxRetries = 3;
        double retryDelay = 0.001;
        bool emptyOkOnDecoderFailure = true;
        int backendTimeoutMs = 0;
        QString apiKey = QStringLiteral("None");
    };

    CompletionRelay(ProxyScheduler &scheduler, Settings settings, ProxyLog log, HttpRequest request,
                    HttpResponderPtr responder, QObject *parent = nullptr);
    ~CompletionRelay() override;

    void start();

    // What the proxy does with one network read of the decoder's answer (main HEAD): the rewritten
    // bytes, or an IndexError for a lone SSE event without choices and usage (a vLLM error event).
    struct ReadResult {
        QByteArray bytes;
        bool indexError = false;
    };
    static ReadResult processDecoderRead(const QByteArray &read, bool stream, qint64 cachedTokens);
    // The body the prefiller receives.
    static OrderedJson prefillBody(const OrderedJson &original, ProxyGeneration generation);

Q_SIGNALS:
    void done();

private:
    enum class Failure { Http, Transport };

    int attempts() const;
    int retryDelayMs(int attempt) const;
    bool retryable(Failure failure, int status, int attempt) const;
    BackendCall *newCall(const BackendAddress &address, const QByteArray &body);
    void sendPrefill(int attempt);
    void prefillFailed(Failure failure, int status, const QByteArray &body, const QString &reason);
    void prefillSucceeded(const QByteArray &body);
    void sendDecode(int attempt);
    void decodeFailed(Failure failure, int status, const QByteArray &body, const QString &reason, int attempt);
    void decoderGaveUp(Failure failure, int status, const QByteArray &body, const QString &reason);
    void decoderRead(const QByteArray &data);
    void commitHeaders();
    void answerError(int status, const QByteArray &contentType, const QByteArray &body);
    void finish();
    void onClientGone();

    ProxyScheduler &m_scheduler;
    Settings m_settings;
    ProxyLog m_log;
    HttpRequest m_request;
    HttpResponderPtr m_responder;
    QPointer<BackendCall> m_call;

    OrderedJson m_body;
    bool m_stream = false;
    QByteArray m_requestId;
    double m_prefillScore = 0;
    double m_decodeScore = 0;
    std::optional<ProxyScheduler::Pick> m_prefill;
    std::optional<ProxyScheduler::Pick> m_decode;
    bool m_counted = false;
    bool m_prefillReleased = false;
    bool m_committed = false;
    bool m_relayed = false;
    bool m_finished = false;
    QByteArray m_responseBody;
    QByteArray m_decodeBody;
    qint64 m_cachedTokens = 0;
};

} // namespace pd::sim
