// SPDX-License-Identifier: MIT
// pdsim's one HTTP client (sim/proxy/backendcall.h: the proxy's calls to its engines and the cluster's
// client load) against hostile answers from a listener on 127.0.0.141: truncated and non-HTTP status
// lines, lengths that are not numbers, negative or overflowing, bodies cut short, bad chunk sizes,
// 10 MB header and trailer lines without an end, and bytes that are not UTF-8. Each call ends exactly
// once, with the body it got or a reason.
#include "../support/cannedanswerserver.h"
#include "proxy/backendcall.h"

#include <QTest>

using namespace pd::sim;

class TestBackendCall : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hostileAnswersEndTheCallOnce_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("expected"); // "finished <status> <body>" or "failed <reason part>"
        const QByteArray tenMb(10 << 20, 'x');
        QTest::newRow("length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                                << QStringLiteral("finished 200 {}");
        QTest::newRow("chunked") << QByteArray(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
                                 << QStringLiteral("finished 200 {}");
        QTest::newRow("until close") << QByteArray("HTTP/1.1 200 OK\r\n\r\nabc") << QStringLiteral("finished 200 abc");
        QTest::newRow("not UTF-8 body kept as bytes")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n\xff\xfe{")
            << QStringLiteral("finished 200 \xff\xfe{");
        QTest::newRow("truncated status line")
            << QByteArray("HTTP/1.1 20") << QStringLiteral("failed Server disconnected");
        QTest::newRow("not HTTP") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << QStringLiteral("failed invalid HTTP");
        QTest::newRow("status not a number")
            << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n") << QStringLiteral("failed invalid HTTP");
        QTest::newRow("length NaN") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: nan\r\n\r\n")
                                    << QStringLiteral("failed invalid HTTP");
        QTest::newRow("length negative") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n")
                                         << QStringLiteral("failed invalid HTTP");
        QTest::newRow("length overflows")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n")
            << QStringLiteral("failed invalid HTTP");
        QTest::newRow("body cut short") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
                                        << QStringLiteral("failed complete message body");
        QTest::newRow("chunk size not hex") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                            << QStringLiteral("failed invalid HTTP");
        QTest::newRow("chunk size overflows")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n")
            << QStringLiteral("failed invalid HTTP");
        QTest::newRow("huge chunk cut short")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc")
            << QStringLiteral("failed complete message body");
        QTest::newRow("10 MB header line")
            << QByteArray("HTTP/1.1 200 OK\r\nX-Big: ") + tenMb << QStringLiteral("failed invalid HTTP");
        QTest::newRow("10 MB trailer line")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Big: ") + tenMb
            << QStringLiteral("failed invalid HTTP");
    }

    void hostileAnswersEndTheCallOnce()
    {
        QFETCH(QByteArray, answer);
        QFETCH(QString, expected);
        pd::test::CannedAnswerServer server(answer);
        if (!server.listen(QStringLiteral("127.0.0.141")))
            QSKIP("127.0.0.141 not available");
        BackendCall call(QStringLiteral("127.0.0.141"), server.port(), "GET", "/metrics", {}, {});
        call.setTimeout(20000);
        QByteArray body;
        QStringList ends;
        connect(&call, &BackendCall::bodyRead, this, [&body](const QByteArray &data) { body += data; });
        connect(&call, &BackendCall::finished, this,
            [&] { ends << QStringLiteral("finished %1 ").arg(call.status()) + QString::fromLatin1(body); });
        connect(&call, &BackendCall::failed, this,
            [&ends](const QString &why) { ends << QStringLiteral("failed ") + why; });
        call.start();
        QTRY_VERIFY_WITH_TIMEOUT(!ends.isEmpty(), 30000);
        QCOMPARE(ends.size(), 1);
        if (expected.startsWith(QLatin1String("finished")))
            QCOMPARE(ends.first(), expected);
        else
            QVERIFY2(ends.first().startsWith(QLatin1String("failed "))
                    && ends.first().contains(expected.mid(7), Qt::CaseInsensitive),
                qPrintable(ends.first()));
    }
};

QTEST_GUILESS_MAIN(TestBackendCall)
#include "tst_backendcall.moc"
