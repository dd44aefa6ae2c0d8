// SPDX-License-Identifier: MIT
#pragma once

#include "net/httpresponsereader.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <string_view>

// The poller's own HTTP/1.1 client for one engine at a numeric address: GET requests one at a time
// on one kept-alive connection, driven by the poll loop's epoll (level-triggered; the loop passes on
// the events registered under the client's tag and calls onDeadline() when the request's time is up).
// Non-blocking connect; the connection stays registered for reading while idle, so a server that
// closes a kept-alive connection between polls is noticed by the loop, not by a liveness check per
// request. A request on a reused connection that sees the connection end before any byte of the answer
// is sent once more on a fresh connection (as browsers do); nothing else is retried. The answer is read
// straight into the HttpResponseReader's buffer, reused from poll to poll.
// Thread contract: one thread (the poll loop's); no locking.
namespace pd {

class HttpGetClient final {
public:
    enum class Result {
        Pending, // nothing to report yet
        Answered, // a whole response: status(), body()
        Refused, // the connection could not be made (refused, unreachable)
        Timeout, // the deadline passed first
        TooLarge, // the body exceeds the cap
        Failed, // reset, closed mid-answer, not HTTP, socket errors: error()
    };

    // `address` a numeric IPv4 or IPv6 address (see parseAddress()); `hostHeader` "host:port".
    HttpGetClient(const sockaddr_storage &address, socklen_t addressLength, std::string hostHeader, std::size_t maxBody,
        int epollFd, void *epollTag);
    ~HttpGetClient();
    HttpGetClient(const HttpGetClient &) = delete;
    HttpGetClient &operator=(const HttpGetClient &) = delete;

    // Fills `address` when `host` is an IPv4 or IPv6 literal (brackets allowed); false for names.
    static bool parseAddress(std::string_view host, std::uint16_t port, sockaddr_storage *address, socklen_t *length);

    // Starts GET `path`; an immediate failure (refused at once, no descriptor) is returned at once.
    Result get(std::string_view path, std::int64_t nowMs, std::int64_t deadlineMs);
    // An epoll event registered under this client's tag.
    Result onEvents(std::uint32_t events, std::int64_t nowMs);
    // The deadline given to get() has passed (the loop keeps the timers).
    Result onDeadline(std::int64_t nowMs);
    // Drops the connection (target list changed); no result.
    void close();

    bool isBusy() const { return m_phase != Phase::Idle; }
    bool isConnected() const { return m_fd >= 0; }
    std::int64_t deadlineMs() const { return m_deadlineMs; }
    int status() const { return m_reader.status(); }
    std::string_view body() const { return m_reader.body(); }
    const std::string &error() const { return m_error; }
    // Requests sent again on a fresh connection, since construction.
    std::uint64_t retries() const { return m_retries; }

private:
    enum class Phase { Idle, Connecting, Sending, Receiving };

    Result connect();
    Result send();
    Result receive();
    Result retryOrFail(const char *what, int error);
    Result failed(Result kind, std::string message);
    void watch(std::uint32_t events);

    sockaddr_storage m_address {};
    socklen_t m_addressLength = 0;
    std::string m_hostHeader;
    int m_epoll = -1;
    void *m_tag = nullptr;
    int m_fd = -1;
    std::uint32_t m_watched = 0;
    Phase m_phase = Phase::Idle;
    bool m_reused = false; // the request went out on a connection that had served one before
    bool m_retried = false;
    std::string m_request;
    std::size_t m_sent = 0;
    std::int64_t m_startedMs = 0;
    std::int64_t m_deadlineMs = 0;
    HttpResponseReader m_reader;
    std::string m_error;
    std::uint64_t m_retries = 0;
};

} // namespace pd
