// SPDX-License-Identifier: MIT
// HttpResponseReader: HTTP/1.1 answers as the poller's client receives them, whole, one byte per
// read and in odd pieces; framing by length, chunks and close; broken framing named.
#include "net/httpresponsereader.h"

#include <QTest>

#include <cstring>

using namespace pd;

Q_DECLARE_METATYPE(pd::HttpResponseReader::State)

namespace {

using State = HttpResponseReader::State;

// Feeds `raw` in pieces of `piece` bytes (0: all at once), then the end of stream if `close`.
State feed(HttpResponseReader &reader, const QByteArray &raw, int piece, bool close)
{
    reader.reset();
    qsizetype at = 0;
    State state = reader.state();
    while (at < raw.size() && (state == State::Head || state == State::Body)) {
        const qsizetype n = piece > 0 ? std::min<qsizetype>(piece, raw.size() - at) : raw.size() - at;
        char *space = reader.writeSpace(std::size_t(n));
        std::memcpy(space, raw.constData() + at, std::size_t(n));
        state = reader.commit(std::size_t(n));
        at += n;
    }
    if (close && (state == State::Head || state == State::Body))
        state = reader.endOfStream();
    return state;
}

} // namespace

class TestHttpResponseReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reads_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<bool>("close");
        QTest::addColumn<State>("state");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("keepAlive");

        const QByteArray body = "vllm:num_requests_running{engine=\"0\"} 3.0\n";
        const QByteArray len = "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
        QTest::newRow("length") << "HTTP/1.1 200 OK\r\n" + len + "\r\n" + body << false << State::Done << 200 << body
                                << true;
        QTest::newRow("length, LF only, header case")
            << "HTTP/1.1 200 OK\ncontent-LENGTH:   " + QByteArray::number(body.size()) + "  \n\n" + body << false
            << State::Done << 200 << body << true;
        QTest::newRow("chunked, odd sizes, extension, trailer")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n1\r\nv\r\n6;x=\"y\"\r\nllm:nu\r\n"
                          "A\r\nm_requests\r\n0\r\nX-Checksum: 1\r\n\r\n")
            << false << State::Done << 200 << QByteArray("vllm:num_requests") << true;
        QTest::newRow("chunked wins over length") << QByteArray(
            "HTTP/1.1 200 OK\r\nContent-Length: 999\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
                                                  << false << State::Done << 200 << QByteArray("abc") << true;
        QTest::newRow("HTTP/1.0 until close")
            << "HTTP/1.0 200 OK\r\nServer: x\r\n\r\n" + body << true << State::Done << 200 << body << false;
        QTest::newRow("HTTP/1.0 keep-alive") << "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\n" + len + "\r\n" + body
                                             << false << State::Done << 200 << body << true;
        QTest::newRow("Connection: close")
            << "HTTP/1.1 200 OK\r\nConnection: something, close\r\n" + len + "\r\n" + body << false << State::Done
            << 200 << body << false;
        QTest::newRow("100 Continue first")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbusy") << false
            << State::Done << 503 << QByteArray("busy") << true;
        QTest::newRow("204 no body") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false << State::Done << 204
                                     << QByteArray() << true;
        QTest::newRow("bytes after the answer") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA")
                                                << false << State::Done << 200 << QByteArray("ok") << false;
        QTest::newRow("closed mid-body") << "HTTP/1.1 200 OK\r\n" + len + "\r\n" + body.left(10) << true << State::Error
                                         << 200 << body.left(10) << true;
        QTest::newRow("closed mid-head") << QByteArray("HTTP/1.1 200 OK\r\nContent-Le") << true << State::Error << 200
                                         << QByteArray() << true;
        QTest::newRow("closed mid-chunk")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc") << true << State::Error
            << 200 << QByteArray("abc") << true;
        QTest::newRow("not HTTP") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << false << State::Error << 0 << QByteArray()
                                  << true;
        QTest::newRow("bad status") << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n") << false << State::Error << 0
                                    << QByteArray() << true;
        QTest::newRow("bad length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n") << false
                                    << State::Error << 200 << QByteArray() << true;
        QTest::newRow("two lengths") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
                                     << false << State::Error << 200 << QByteArray() << true;
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << false << State::Error << 200 << QByteArray() << true;
        QTest::newRow("chunk longer than said")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n") << false << State::Error
            << 200 << QByteArray("ab") << true;
        // Hostile numbers and lines: never a wrapped size, never an unbounded buffer.
        QTest::newRow("length past 64 bits")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n") << false
            << State::Error << 200 << QByteArray() << true;
        QTest::newRow("negative length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n") << false
                                         << State::Error << 200 << QByteArray() << true;
        QTest::newRow("chunk size past 64 bits")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n") << false
            << State::Error << 200 << QByteArray() << true;
        QTest::newRow("10 MB header line") << "HTTP/1.1 200 OK\r\nX-Junk: " + QByteArray(10 * 1024 * 1024, 'j')
                                           << false << State::Error << 200 << QByteArray() << true;
        QTest::newRow("bad UTF-8 and NUL in the head")
            << QByteArray("HTTP/1.1 200 \xff\xfe\0K\r\nContent-Length: 2\r\n\r\nok", 42) << false << State::Done
            << 200 << QByteArray("ok") << true;
        QTest::newRow("length over the cap") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1025\r\n\r\n") << false
                                             << State::TooLarge << 200 << QByteArray() << true;
        QTest::newRow("chunks over the cap") << "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n300\r\n"
                + QByteArray(0x300, 'a') + "\r\n300\r\n" + QByteArray(0x300, 'b') + "\r\n0\r\n\r\n"
                                             << false << State::TooLarge << 200 << QByteArray(0x300, 'a') << true;
        QTest::newRow("until close over the cap") << "HTTP/1.1 200 OK\r\n\r\n" + QByteArray(1100, 'c') << true
                                                  << State::TooLarge << 200 << QByteArray(1100, 'c') << true;
    }

    void reads()
    {
        QFETCH(QByteArray, raw);
        QFETCH(bool, close);
        QFETCH(State, state);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, keepAlive);
        HttpResponseReader reader(1024); // a small cap, so the cap is reachable here
        for (int piece : { 0, 1, 7 }) {
            const State got = feed(reader, raw, piece, close);
            QCOMPARE(got, state);
            QCOMPARE(reader.status(), status);
            if (state == State::Done) {
                QCOMPARE(QByteArray(reader.body().data(), qsizetype(reader.body().size())), body);
                // Bytes after the answer are seen only when they come in the same read as its end.
                if (piece == 0 || !QByteArray(QTest::currentDataTag()).startsWith("bytes after"))
                    QCOMPARE(reader.keepAlive(), keepAlive);
            }
            if (state == State::Error)
                QVERIFY(std::strlen(reader.error()) > 0);
        }
    }

    // The buffer is kept: a second answer of the same size on the same reader needs no more room.
    void reusesItsBuffer()
    {
        HttpResponseReader reader(4 * 1024 * 1024);
        const QByteArray body(200 * 1024, 'm');
        const QByteArray raw
            = "HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        QCOMPARE(feed(reader, raw, 65536, false), State::Done);
        const char *first = reader.body().data();
        QCOMPARE(feed(reader, raw, 65536, false), State::Done);
        QCOMPARE(reader.body().data(), first);
        QCOMPARE(reader.body().size(), std::size_t(body.size()));
    }
};

QTEST_GUILESS_MAIN(TestHttpResponseReader)
#include "tst_httpresponsereader.moc"
