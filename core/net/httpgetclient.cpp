// SPDX-License-Identifier: MIT
#include "net/httpgetclient.h"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pd {

namespace {

// The least room offered to one recv(); a Content-Length body gets its whole room once its length is known.
constexpr std::size_t kReceiveRoom = 4 * 1024;

std::string errnoText(int error)
{
    return std::string(std::strerror(error));
}

} // namespace

HttpGetClient::HttpGetClient(const sockaddr_storage &address, socklen_t addressLength, std::string hostHeader,
    std::size_t maxBody, int epollFd, void *epollTag)
    : m_address(address)
    , m_addressLength(addressLength)
    , m_hostHeader(std::move(hostHeader))
    , m_epoll(epollFd)
    , m_tag(epollTag)
    , m_reader(maxBody)
{
    m_request.reserve(256);
}

HttpGetClient::~HttpGetClient()
{
    close();
}

bool HttpGetClient::parseAddress(
    std::string_view host, std::uint16_t port, sockaddr_storage *address, socklen_t *length)
{
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host.empty() || host.size() >= INET6_ADDRSTRLEN)
        return false;
    char text[INET6_ADDRSTRLEN] = {};
    std::memcpy(text, host.data(), host.size());
    *address = sockaddr_storage {};
    auto *v4 = reinterpret_cast<sockaddr_in *>(address);
    if (inet_pton(AF_INET, text, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        *length = sizeof(sockaddr_in);
        return true;
    }
    auto *v6 = reinterpret_cast<sockaddr_in6 *>(address);
    if (inet_pton(AF_INET6, text, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        *length = sizeof(sockaddr_in6);
        return true;
    }
    return false;
}

void HttpGetClient::close()
{
    if (m_fd >= 0)
        ::close(m_fd); // leaves the epoll set with it (the descriptor is never duplicated)
    m_fd = -1;
    m_watched = 0;
    m_phase = Phase::Idle;
}

void HttpGetClient::watch(std::uint32_t events)
{
    if (events == m_watched)
        return;
    epoll_event ev {};
    ev.events = events;
    ev.data.ptr = m_tag;
    epoll_ctl(m_epoll, m_watched == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, m_fd, &ev);
    m_watched = events;
}

HttpGetClient::Result HttpGetClient::failed(Result kind, std::string message)
{
    close();
    m_error = std::move(message);
    return kind;
}

HttpGetClient::Result HttpGetClient::get(std::string_view path, std::int64_t nowMs, std::int64_t deadlineMs)
{
    m_request.assign("GET ");
    m_request.append(path);
    m_request.append(" HTTP/1.1\r\nHost: ");
    m_request.append(m_hostHeader);
    m_request.append("\r\nUser-Agent: pdconsole\r\nAccept: */*\r\n\r\n");
    m_sent = 0;
    m_retried = false;
    m_startedMs = nowMs;
    m_deadlineMs = deadlineMs;
    m_error.clear();
    m_reader.reset();
    if (m_fd >= 0) {
        m_reused = true;
        return send();
    }
    m_reused = false;
    return connect();
}

HttpGetClient::Result HttpGetClient::connect()
{
    close();
    m_fd = ::socket(m_address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
        return failed(Result::Failed, "cannot open a socket: " + errnoText(errno));
    const int one = 1;
    setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&m_address), m_addressLength) == 0) {
        watch(EPOLLIN);
        return send();
    }
    if (errno != EINPROGRESS)
        return failed(Result::Refused, "could not connect to " + m_hostHeader + ": " + errnoText(errno));
    m_phase = Phase::Connecting;
    watch(EPOLLOUT);
    return Result::Pending;
}

HttpGetClient::Result HttpGetClient::send()
{
    while (m_sent < m_request.size()) {
        const ssize_t n = ::send(m_fd, m_request.data() + m_sent, m_request.size() - m_sent, MSG_NOSIGNAL);
        if (n > 0) {
            m_sent += std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            m_phase = Phase::Sending;
            watch(EPOLLIN | EPOLLOUT);
            return Result::Pending;
        }
        return retryOrFail("sending the request", n < 0 ? errno : EPIPE);
    }
    m_phase = Phase::Receiving;
    watch(EPOLLIN);
    return Result::Pending;
}

HttpGetClient::Result HttpGetClient::retryOrFail(const char *what, int error)
{
    // A kept-alive connection the server had already closed: nothing of this answer arrived, so the
    // request never reached a live server. Once, on a fresh connection.
    if (m_reused && !m_retried && !m_reader.receivedAnything()) {
        m_retried = true;
        m_reused = false;
        ++m_retries;
        m_sent = 0;
        m_reader.reset();
        return connect();
    }
    const std::string received = " (" + std::to_string(m_reader.receivedBytes()) + " bytes received)";
    if (error == 0)
        return failed(Result::Failed, "the server closed the connection without an answer" + received);
    return failed(Result::Failed, errnoText(error) + " while " + what + received);
}

HttpGetClient::Result HttpGetClient::receive()
{
    for (;;) {
        char *space = m_reader.writeSpace(kReceiveRoom);
        const std::size_t room = m_reader.writeSpaceSize();
        const ssize_t n = ::recv(m_fd, space, room, 0);
        if (n > 0) {
            switch (m_reader.commit(std::size_t(n))) {
            case HttpResponseReader::State::Done:
                if (!m_reader.keepAlive())
                    close();
                m_phase = Phase::Idle;
                return Result::Answered;
            case HttpResponseReader::State::TooLarge:
                return failed(Result::TooLarge, "the body exceeds the cap");
            case HttpResponseReader::State::Error:
                return failed(Result::Failed, m_reader.error());
            case HttpResponseReader::State::Head:
            case HttpResponseReader::State::Body:
                break;
            }
            if (std::size_t(n) < room)
                return Result::Pending; // drained for now; level-triggered epoll reports the rest
            continue;
        }
        if (n == 0) {
            if (m_reused && !m_retried && !m_reader.receivedAnything())
                return retryOrFail("reading the answer", 0);
            if (m_reader.endOfStream() == HttpResponseReader::State::Done) {
                close();
                return Result::Answered;
            }
            return failed(Result::Failed,
                std::string(m_reader.error()) + " (" + std::to_string(m_reader.receivedBytes()) + " bytes received)");
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return Result::Pending;
        return retryOrFail("reading the answer", errno);
    }
}

HttpGetClient::Result HttpGetClient::onEvents(std::uint32_t events, std::int64_t)
{
    switch (m_phase) {
    case Phase::Idle: {
        // A kept-alive connection between requests: the server closed it, or sent what nobody asked.
        char scratch[256];
        const ssize_t n = m_fd >= 0 ? ::recv(m_fd, scratch, sizeof scratch, MSG_DONTWAIT) : 0;
        if (!(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)))
            close();
        return Result::Pending;
    }
    case Phase::Connecting: {
        int error = 0;
        socklen_t length = sizeof error;
        if (getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0)
            error = errno;
        if (error == 0 && !(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return Result::Pending;
        if (error != 0 || (events & (EPOLLERR | EPOLLHUP)))
            return failed(Result::Refused,
                "could not connect to " + m_hostHeader + ": " + errnoText(error ? error : ECONNREFUSED));
        return send();
    }
    case Phase::Sending:
        if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
            return receive(); // an answer (or a close) before the request was out
        return send();
    case Phase::Receiving:
        return receive();
    }
    return Result::Pending;
}

HttpGetClient::Result HttpGetClient::onDeadline(std::int64_t nowMs)
{
    if (m_phase == Phase::Idle)
        return Result::Pending;
    const std::string elapsed = std::to_string(nowMs - m_startedMs) + " ms";
    if (m_phase == Phase::Connecting)
        return failed(Result::Timeout, "connecting to " + m_hostHeader + " timed out after " + elapsed);
    return failed(Result::Timeout,
        "timed out after " + elapsed + " with " + std::to_string(m_reader.receivedBytes()) + " bytes received");
}

} // namespace pd
