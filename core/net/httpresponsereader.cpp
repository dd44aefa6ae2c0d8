// SPDX-License-Identifier: MIT
#include "net/httpresponsereader.h"

#include <algorithm>
#include <cstring>

namespace pd {

namespace {

constexpr std::size_t kMaxHead = 64 * 1024;
constexpr std::size_t kMaxChunkLine = 4 * 1024;

bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i];
        char y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = char(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Calls `f` with every comma-separated token of a header value, trimmed.
template<typename F> void forEachToken(std::string_view value, F f)
{
    while (!value.empty()) {
        const auto comma = value.find(',');
        f(trimmed(value.substr(0, comma)));
        if (comma == std::string_view::npos)
            break;
        value.remove_prefix(comma + 1);
    }
}

} // namespace

HttpResponseReader::HttpResponseReader(std::size_t maxBody)
    : m_maxBody(maxBody)
{
}

void HttpResponseReader::reset(bool headRequest)
{
    m_length = 0;
    m_parsed = 0;
    m_received = 0;
    m_state = State::Head;
    m_error = "";
    m_headRequest = headRequest;
    m_status = 0;
    m_http10 = false;
    m_keepAlive = true;
    m_connectionClose = false;
    m_connectionKeepAlive = false;
    m_chunked = false;
    m_otherCoding = false;
    m_contentLength = -1;
    m_trailingBytes = false;
    m_framing = Framing::None;
    m_bodyStart = 0;
    m_bodyLength = 0;
    m_remaining = 0;
    m_chunk = ChunkState::Size;
}

char *HttpResponseReader::writeSpace(std::size_t atLeast)
{
    if (m_buffer.size() - m_length < atLeast)
        m_buffer.resize(std::max({ m_buffer.size() * 2, m_length + atLeast, std::size_t(16 * 1024) }));
    return m_buffer.data() + m_length;
}

HttpResponseReader::State HttpResponseReader::fail(const char *why)
{
    m_error = why;
    m_state = State::Error;
    return m_state;
}

HttpResponseReader::State HttpResponseReader::commit(std::size_t n)
{
    m_length += n;
    m_received += n;
    if (m_state == State::Head)
        parseHead();
    if (m_state == State::Body)
        parseBody();
    return m_state;
}

HttpResponseReader::State HttpResponseReader::endOfStream()
{
    if (m_state == State::Body && m_framing == Framing::UntilClose) {
        m_state = State::Done;
        return m_state;
    }
    if (m_state == State::Head)
        return fail(m_received == 0 ? "the server closed the connection without an answer"
                                    : "the server closed the connection in the middle of the headers");
    if (m_state == State::Body)
        return fail(m_framing == Framing::Chunked ? "the server closed the connection in the middle of a chunked body"
                                                  : "the server closed the connection before the whole body arrived");
    return m_state;
}

HttpResponseReader::State HttpResponseReader::parseHead()
{
    for (;;) {
        const char *base = m_buffer.data();
        const void *nl = std::memchr(base + m_parsed, '\n', m_length - m_parsed);
        if (!nl) {
            if (m_length > kMaxHead)
                return fail("the response headers exceed 64 KiB");
            return m_state;
        }
        const std::size_t end = std::size_t(static_cast<const char *>(nl) - base);
        std::string_view line(base + m_parsed, end - m_parsed);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        m_parsed = end + 1;
        if (m_parsed > kMaxHead)
            return fail("the response headers exceed 64 KiB");
        if (m_status == 0) {
            // HTTP/1.x SP 3DIGIT [SP reason]
            if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || (line[7] != '0' && line[7] != '1')
                || line[8] != ' ')
                return fail("the answer is not an HTTP/1.x response");
            int status = 0;
            for (std::size_t i = 9; i < 12; ++i) {
                if (line[i] < '0' || line[i] > '9')
                    return fail("the status line has no three-digit status");
                status = status * 10 + (line[i] - '0');
            }
            if (status < 100 || (line.size() > 12 && line[12] != ' '))
                return fail("the status line has no three-digit status");
            m_status = status;
            m_http10 = line[7] == '0';
            continue;
        }
        if (!line.empty()) {
            if (!parseHeaderLine(line))
                return m_state;
            continue;
        }
        // End of the head.
        if (m_status >= 100 && m_status < 200 && m_status != 101) {
            // An interim answer (100 Continue, 103 Early Hints): drop it, the real one follows.
            std::memmove(m_buffer.data(), m_buffer.data() + m_parsed, m_length - m_parsed);
            m_length -= m_parsed;
            m_parsed = 0;
            m_status = 0;
            m_connectionClose = m_connectionKeepAlive = m_chunked = m_otherCoding = false;
            m_contentLength = -1;
            continue;
        }
        m_keepAlive = m_http10 ? (m_connectionKeepAlive && !m_connectionClose) : !m_connectionClose;
        m_bodyStart = m_parsed;
        m_bodyLength = 0;
        if (m_headRequest || m_status == 204 || m_status == 304 || m_status == 101) {
            m_framing = Framing::None;
            m_keepAlive = m_keepAlive && m_status != 101;
            m_trailingBytes = m_length > m_parsed;
            m_state = State::Done;
            return m_state;
        }
        if (m_chunked) {
            m_framing = Framing::Chunked;
            m_chunk = ChunkState::Size;
        } else if (m_contentLength >= 0 && !m_otherCoding) {
            m_framing = Framing::Length;
            if (static_cast<unsigned long long>(m_contentLength) > m_maxBody) {
                m_state = State::TooLarge;
                return m_state;
            }
            m_remaining = std::size_t(m_contentLength);
            // Room for the whole body once, so it lands where it will be parsed.
            if (m_buffer.size() < m_bodyStart + m_remaining)
                m_buffer.resize(m_bodyStart + m_remaining + 1024);
        } else {
            m_framing = Framing::UntilClose;
        }
        m_state = State::Body;
        return m_state;
    }
}

bool HttpResponseReader::parseHeaderLine(std::string_view line)
{
    if (line.front() == ' ' || line.front() == '\t')
        return true; // obsolete line folding: a continuation of a header this reader does not read
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
        fail("a response header line has no name and colon");
        return false;
    }
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (equalsNoCase(name, "content-length")) {
        if (value.empty() || value.size() > 15) {
            fail(value.empty() ? "Content-Length is empty" : "Content-Length is out of range");
            return false;
        }
        long long n = 0;
        for (char c : value) {
            if (c < '0' || c > '9') {
                fail("Content-Length is not a number");
                return false;
            }
            n = n * 10 + (c - '0');
        }
        if (m_contentLength >= 0 && m_contentLength != n) {
            fail("the response has two different Content-Length headers");
            return false;
        }
        m_contentLength = n;
    } else if (equalsNoCase(name, "transfer-encoding")) {
        // The body is chunked when chunked is the last coding; other codings end at close.
        bool last = false;
        forEachToken(value, [&last](std::string_view token) { last = equalsNoCase(token, "chunked"); });
        m_chunked = last;
        m_otherCoding = !last; // framed by close whatever Content-Length says (RFC 9112 §6.3)
    } else if (equalsNoCase(name, "connection")) {
        forEachToken(value, [this](std::string_view token) {
            if (equalsNoCase(token, "close"))
                m_connectionClose = true;
            else if (equalsNoCase(token, "keep-alive"))
                m_connectionKeepAlive = true;
        });
    }
    return true;
}

HttpResponseReader::State HttpResponseReader::parseBody()
{
    switch (m_framing) {
    case Framing::Length: {
        const std::size_t available = m_length - (m_bodyStart + m_bodyLength);
        const std::size_t take = std::min(available, m_remaining);
        m_bodyLength += take;
        m_remaining -= take;
        if (m_remaining == 0) {
            m_trailingBytes = available > take;
            m_state = State::Done;
        }
        return m_state;
    }
    case Framing::UntilClose:
        m_bodyLength = m_length - m_bodyStart;
        if (m_bodyLength > m_maxBody)
            m_state = State::TooLarge;
        return m_state;
    case Framing::Chunked:
        return parseChunks();
    case Framing::None:
        break;
    }
    m_state = State::Done;
    return m_state;
}

HttpResponseReader::State HttpResponseReader::parseChunks()
{
    // Decoded bytes are [m_bodyStart, m_bodyStart + m_bodyLength); the raw rest starts at m_parsed.
    char *base = m_buffer.data();
    while (m_state == State::Body) {
        const std::size_t available = m_length - m_parsed;
        if (m_chunk == ChunkState::Data) {
            if (available == 0)
                break;
            const std::size_t take = std::min(available, m_remaining);
            if (m_bodyLength + take > m_maxBody) {
                m_state = State::TooLarge;
                return m_state;
            }
            char *to = base + m_bodyStart + m_bodyLength;
            if (to != base + m_parsed)
                std::memmove(to, base + m_parsed, take);
            m_bodyLength += take;
            m_parsed += take;
            m_remaining -= take;
            if (m_remaining == 0)
                m_chunk = ChunkState::DataEnd;
            continue;
        }
        if (m_chunk == ChunkState::DataEnd) {
            if (available == 0)
                break;
            if (base[m_parsed] == '\n') {
                m_parsed += 1;
            } else if (base[m_parsed] == '\r') {
                if (available < 2)
                    break;
                if (base[m_parsed + 1] != '\n')
                    return fail("a chunk is not followed by CRLF");
                m_parsed += 2;
            } else {
                return fail("a chunk is longer than its size line says");
            }
            m_chunk = ChunkState::Size;
            continue;
        }
        // Size line ("1a3f[;extension]") or trailer lines, each up to LF.
        const void *nl = std::memchr(base + m_parsed, '\n', available);
        if (!nl) {
            if (available > kMaxChunkLine)
                return fail(
                    m_chunk == ChunkState::Size ? "a chunk size line is too long" : "a trailer line is too long");
            break;
        }
        const std::size_t end = std::size_t(static_cast<const char *>(nl) - base);
        std::string_view line(base + m_parsed, end - m_parsed);
        m_parsed = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (m_chunk == ChunkState::Trailer) {
            if (line.empty()) {
                m_trailingBytes = m_parsed < m_length;
                m_state = State::Done;
            }
            continue;
        }
        line = trimmed(line.substr(0, line.find(';')));
        if (line.empty() || line.size() > 15)
            return fail("a chunk size is not a hexadecimal number");
        std::size_t size = 0;
        for (char c : line) {
            int digit = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f'       ? c - 'a' + 10
                : c >= 'A' && c <= 'F'       ? c - 'A' + 10
                                             : -1;
            if (digit < 0)
                return fail("a chunk size is not a hexadecimal number");
            size = size * 16 + std::size_t(digit);
        }
        if (size == 0) {
            m_chunk = ChunkState::Trailer;
            continue;
        }
        if (m_bodyLength + size > m_maxBody) {
            m_state = State::TooLarge;
            return m_state;
        }
        m_remaining = size;
        m_chunk = ChunkState::Data;
    }
    // Keep the undecoded rest right behind the decoded body so the buffer does not creep.
    const std::size_t bodyEnd = m_bodyStart + m_bodyLength;
    if (m_parsed > bodyEnd) {
        std::memmove(base + bodyEnd, base + m_parsed, m_length - m_parsed);
        m_length = bodyEnd + (m_length - m_parsed);
        m_parsed = bodyEnd;
    }
    return m_state;
}

} // namespace pd
