// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

// One HTTP/1.1 response read incrementally out of a buffer the reader owns and reuses: the socket
// receives straight into writeSpace(), commit() parses what arrived. The status line and headers are
// parsed in place; a Content-Length body stays where it was received, a chunked body is de-chunked in
// place, a body without either runs to end of stream. body() is a view into the buffer, valid until
// the next reset(). Interim 1xx answers are skipped. The buffer grows only when a body is larger than
// any seen before on this connection, so polls in the steady state allocate nothing.
// Pure: no sockets, no clock; the poller's HttpGetClient drives it.
namespace pd {

class HttpResponseReader final {
public:
    enum class State {
        Head, // status line and headers still arriving
        Body, // headers done, body arriving
        Done, // the whole response is in; body() is complete
        Error, // the response is not HTTP or breaks its own framing; see error()
        TooLarge, // the body exceeds the cap
    };

    explicit HttpResponseReader(std::size_t maxBody);

    // Forgets the previous response; `headRequest`: the answer has no body whatever its headers say.
    void reset(bool headRequest = false);

    // Room for the next receive: at least `atLeast` bytes (grows the buffer if needed).
    char *writeSpace(std::size_t atLeast = 16 * 1024);
    std::size_t writeSpaceSize() const { return m_buffer.size() - m_length; }
    // `n` bytes were written at writeSpace(); parses them. Returns the new state.
    State commit(std::size_t n);
    // The peer closed the stream: completes a body that runs to end of stream, otherwise an error.
    State endOfStream();

    State state() const { return m_state; }
    bool receivedAnything() const { return m_received > 0; }
    std::size_t receivedBytes() const { return m_received; }
    int status() const { return m_status; }
    // Whether the connection may carry the next request (HTTP/1.1 without "Connection: close",
    // HTTP/1.0 with "Connection: keep-alive", and a body framed by length or chunks). Valid when Done.
    bool keepAlive() const { return m_keepAlive && m_framing != Framing::UntilClose && !m_trailingBytes; }
    std::string_view body() const { return { m_buffer.data() + m_bodyStart, m_bodyLength }; }
    const char *error() const { return m_error; }

private:
    enum class Framing { None, Length, Chunked, UntilClose };
    enum class ChunkState { Size, Data, DataEnd, Trailer };

    State fail(const char *why);
    State parseHead();
    bool parseHeaderLine(std::string_view line);
    State parseBody();
    State parseChunks();

    std::size_t m_maxBody;
    std::vector<char> m_buffer;
    std::size_t m_length = 0; // bytes in the buffer
    std::size_t m_parsed = 0; // bytes of the buffer already parsed (head scan position, chunk cursor)
    std::size_t m_received = 0; // bytes received for this response (including skipped 1xx answers)
    State m_state = State::Head;
    const char *m_error = "";
    bool m_headRequest = false;
    int m_status = 0;
    bool m_http10 = false;
    bool m_keepAlive = true;
    bool m_connectionClose = false;
    bool m_connectionKeepAlive = false;
    bool m_chunked = false;
    bool m_otherCoding = false; // a transfer coding other than chunked last: the body ends at close
    long long m_contentLength = -1;
    bool m_trailingBytes = false; // bytes after the end of the response (the connection is not reused)
    Framing m_framing = Framing::None;
    std::size_t m_bodyStart = 0;
    std::size_t m_bodyLength = 0;
    std::size_t m_remaining = 0; // Length: body bytes still to come; Chunked: bytes of the current chunk
    ChunkState m_chunk = ChunkState::Size;
};

} // namespace pd
