// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/warmuptypes.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>
#include <vector>

class QNetworkAccessManager;

// One warm-up / smoke test run: N small completions through the proxy, at most `concurrency` in
// flight, each classified (ok, HTTP error, empty 200, stream without [DONE], malformed line, error
// payload, no tokens, timeout, connection failure), then the totals, and one audit line.
//
// Threads and lifetime: lives on the thread that creates it (the GUI thread is fine: QNetworkAccessManager
// is asynchronous, a warm-up sends a few requests per second). Each concurrency lane has its own
// QNetworkAccessManager, so its requests never queue behind QNAM's six connections per host and the
// time to the first token is measured from the moment the request leaves. start() once; finished()
// is emitted exactly once, also after cancel() or when the options or the model are unusable (then
// result().error says why and nothing was sent). Deleting the run aborts what is in flight.
//
// Transport: a caller may lend one QNetworkAccessManager for every lane instead (tests lend a canned
// transport, tests/support/cannedtransport.h). It is not owned, must outlive the run and live in the
// run's thread; its connection limits are its own (a lent Qt manager queues lanes past six per host).
namespace pd {

class AuditLog;

class WarmUpRun final : public QObject {
    Q_OBJECT
public:
    // audit may be nullptr only where nothing is audited (never in the console or pdctl).
    WarmUpRun(ProxyEndpoint endpoint, WarmUpOptions options, AuditLog *audit, QObject *parent = nullptr);
    // Sends through `transport` (borrowed, see above); nullptr: one transport of its own per lane.
    WarmUpRun(ProxyEndpoint endpoint, WarmUpOptions options, AuditLog *audit, QNetworkAccessManager *transport,
        QObject *parent = nullptr);
    ~WarmUpRun() override;

    void start();
    // Aborts the requests in flight (they count as cancelled) and sends no more.
    void cancel();
    bool isRunning() const { return m_running; }
    // The result so far (samples of finished requests; totals filled when finished).
    const WarmUpResult &result() const { return m_result; }

    // The prompt of request `index`: about promptTokens * 4 characters, distinct per request.
    static QString prompt(const WarmUpOptions &options, int index);
    // The request body of request `index`.
    static QByteArray requestBody(const WarmUpOptions &options, const QString &model, int index);

Q_SIGNALS:
    void modelResolved(const QString &model, const QString &source);
    void sampleFinished(const pd::WarmUpSample &sample);
    void progress(int done, int total);
    void finished(const pd::WarmUpResult &result);

private:
    struct Lane;

    void resolveModel();
    void beginSending(const QString &model, const QString &source);
    void launch(Lane &lane);
    void onData(Lane &lane);
    void onFinished(Lane &lane);
    void complete(const QString &error = QString());
    void writeAudit();

    ProxyEndpoint m_endpoint;
    AuditLog *m_audit;
    QNetworkAccessManager *m_transport = nullptr; // borrowed; nullptr: each lane makes its own
    WarmUpResult m_result;
    std::vector<std::unique_ptr<Lane>> m_lanes;
    QElapsedTimer m_clock;
    int m_next = 0;
    int m_done = 0;
    bool m_started = false;
    bool m_running = false;
    bool m_cancelled = false;
    bool m_completed = false;
};

} // namespace pd
