// SPDX-License-Identifier: MIT
// The watchdog's events: problem transitions (appeared / cleared, once each), their JSON, the exit code
// of `pdctl problems`, and the webhook sender (retries, bounded queue) against a local receiver.
#include "watch/problemtransitions.h"
#include "watch/webhooksender.h"
#include "webhookreceiver.h"

#include <QSignalSpy>
#include <QTest>

using namespace pd;

namespace {

Problem problem(const QString &key, ProblemSeverity severity, int engine = -1)
{
    Problem p;
    p.key = key;
    p.severity = severity;
    p.kind = severity == ProblemSeverity::Warning ? ProblemKind::MetricsStale : ProblemKind::ListedButDead;
    p.what = QStringLiteral("what %1").arg(key);
    p.where = QStringLiteral("where");
    p.detail = QStringLiteral("detail");
    p.evidence = {QStringLiteral("one"), QStringLiteral("two")};
    p.engine = engine;
    p.sinceMs = 1000;
    return p;
}

} // namespace

class TestWatchEvents : public QObject {
    Q_OBJECT

    // Webhook settings for `url` whose first retry comes after 10 ms.
    static WebhookSettings quickRetries(const QUrl &url)
    {
        WebhookSettings s;
        s.url = url;
        s.firstRetryDelayMs = 10;
        return s;
    }

private Q_SLOTS:
    void transitionsAreSaidOnce()
    {
        ProblemTransitions t;
        QList<ProblemTransition> out = t.update({problem(QStringLiteral("a"), ProblemSeverity::Error)}, 10);
        QCOMPARE(out.size(), 1);
        QCOMPARE(out.first().kind, ProblemTransition::Kind::Appeared);
        QVERIFY(t.update({problem(QStringLiteral("a"), ProblemSeverity::Error)}, 20).isEmpty());
        out = t.update({problem(QStringLiteral("b"), ProblemSeverity::Warning)}, 30);
        QCOMPARE(out.size(), 2);
        QCOMPARE(out.at(0).kind, ProblemTransition::Kind::Cleared);
        QCOMPARE(out.at(0).problem.key, QStringLiteral("a"));
        QCOMPARE(out.at(1).kind, ProblemTransition::Kind::Appeared);
        QCOMPARE(out.at(1).problem.key, QStringLiteral("b"));
        QCOMPARE(t.openCount(), 1);
        out = t.update({}, 40);
        QCOMPARE(out.size(), 1);
        QCOMPARE(out.first().atMs, std::int64_t(40));
    }

    void jsonNamesEnginesByAddress()
    {
        const ProblemTransition t{ProblemTransition::Kind::Appeared, problem(QStringLiteral("listed-but-dead:3"), ProblemSeverity::Error, 3), 0};
        const nlohmann::ordered_json j = transitionJson(t, [](int e) { return QStringLiteral("127.0.0.9:900%1").arg(e); });
        QVERIFY2(j["event"] == "appeared", j["event"].dump().c_str());
        QVERIFY2(j["problem"]["key"] == "listed-but-dead:3", j["problem"]["key"].dump().c_str());
        QVERIFY2(j["problem"]["kind"] == "listed-but-dead", j["problem"]["kind"].dump().c_str());
        QVERIFY2(j["problem"]["severity"] == "error", j["problem"]["severity"].dump().c_str());
        QVERIFY2(j["problem"]["engine"] == "127.0.0.9:9003", j["problem"]["engine"].dump().c_str());
        QVERIFY(j["problem"]["evidence"].size() == 2);
        QVERIFY2(j["problem"]["since"] == "1970-01-01T00:00:01.000Z", j["problem"]["since"].dump().c_str());
    }

    void exitCodes()
    {
        QCOMPARE(problemsExitCode({}), 0);
        QCOMPARE(problemsExitCode({problem(QStringLiteral("w"), ProblemSeverity::Warning)}), 1);
        QCOMPARE(problemsExitCode({problem(QStringLiteral("w"), ProblemSeverity::Warning), problem(QStringLiteral("e"), ProblemSeverity::Error)}), 2);
        QCOMPARE(problemsExitCode({problem(QStringLiteral("c"), ProblemSeverity::Critical)}), 2);
    }

    void webhookRetriesUntilAccepted()
    {
        test::WebhookReceiver receiver;
        QVERIFY(receiver.listen());
        receiver.script = {500, 503};
        WebhookSettings s = quickRetries(QUrl(receiver.url()));
        WebhookSender sender(s);
        QSignalSpy delivered(&sender, &WebhookSender::deliveredOne);
        sender.send(R"({"n":1})");
        sender.send(R"({"n":2})");
        QCOMPARE(sender.queued(), 2); // send() only queues
        QTRY_COMPARE_WITH_TIMEOUT(sender.delivered(), 2, 10000);
        QCOMPARE(receiver.bodies, (QList<QByteArray>{R"({"n":1})", R"({"n":2})"})); // in order, after two refusals
        QCOMPARE(receiver.requests(), 4);
        QCOMPARE(sender.dropped(), 0);
    }

    void webhookGivesUpAndBoundsItsQueue()
    {
        test::WebhookReceiver receiver;
        QVERIFY(receiver.listen());
        receiver.script = {500, 500};
        WebhookSettings s = quickRetries(QUrl(receiver.url()));
        s.maxAttempts = 2;
        s.queueCapacity = 3;
        WebhookSender sender(s);
        QSignalSpy failed(&sender, &WebhookSender::failedOne);
        for (int i = 1; i <= 6; ++i)
            sender.send(QByteArray::number(i));
        // 1 is in flight; of 2..6 only the newest two fit beside it: 2, 3, 4 were pushed out.
        QCOMPARE(sender.dropped(), 3);
        QTRY_COMPARE_WITH_TIMEOUT(sender.queued(), 0, 10000);
        QCOMPARE(failed.size(), 1); // message 1, refused twice
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("HTTP 500")));
        QCOMPARE(receiver.bodies, (QList<QByteArray>{"5", "6"}));
        QCOMPARE(sender.dropped(), 4);
    }

    void aDeadReceiverDoesNotHoldTheCaller()
    {
        WebhookSettings s = quickRetries(QUrl(QStringLiteral("http://127.0.0.1:1/hook"))); // nothing listens on port 1
        s.maxAttempts = 2;
        WebhookSender sender(s);
        QSignalSpy failed(&sender, &WebhookSender::failedOne);
        sender.send("{}");
        QCOMPARE(sender.queued(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("127.0.0.1:1")), qPrintable(failed.first().first().toString()));
    }
};

QTEST_GUILESS_MAIN(TestWatchEvents)
#include "tst_watchevents.moc"
