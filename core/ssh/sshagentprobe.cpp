// SPDX-License-Identifier: MIT
#include "ssh/sshagentprobe.h"

#include <QElapsedTimer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace pd {

namespace {

struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

// Waits until fd is ready for `events` or the deadline passes; false on timeout or error.
bool waitFor(int fd, short events, const QElapsedTimer &clock, std::chrono::milliseconds deadline)
{
    for (;;) {
        const qint64 left = deadline.count() - clock.elapsed();
        if (left <= 0)
            return false;
        pollfd p{fd, events, 0};
        const int rc = ::poll(&p, 1, int(left));
        if (rc > 0)
            return (p.revents & events) != 0;
        if (rc == 0)
            return false;
        if (errno != EINTR)
            return false;
    }
}

} // namespace

bool sshAgentAnswers(const QByteArray &socketPath, std::chrono::milliseconds deadline, QString *why)
{
    const auto fail = [why](const QString &text) {
        if (why)
            *why = text;
        return false;
    };
    sockaddr_un address{};
    if (socketPath.isEmpty() || socketPath.size() >= qsizetype(sizeof(address.sun_path)))
        return fail(QStringLiteral("no usable agent socket path"));
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, socketPath.constData(), std::size_t(socketPath.size()));
    Fd s;
    s.fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s.fd < 0)
        return fail(QStringLiteral("socket: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    QElapsedTimer clock;
    clock.start();
    if (::connect(s.fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) != 0) {
        if (errno != EINPROGRESS && errno != EAGAIN)
            return fail(QStringLiteral("cannot connect to %1: %2").arg(QString::fromLocal8Bit(socketPath),
                                                                        QString::fromLocal8Bit(std::strerror(errno))));
        if (!waitFor(s.fd, POLLOUT, clock, deadline))
            return fail(QStringLiteral("%1 does not accept a connection").arg(QString::fromLocal8Bit(socketPath)));
    }
    // uint32 length 1, then the message type 11 (SSH_AGENTC_REQUEST_IDENTITIES).
    const unsigned char request[] = {0, 0, 0, 1, 11};
    std::size_t sent = 0;
    while (sent < sizeof(request)) {
        if (!waitFor(s.fd, POLLOUT, clock, deadline))
            return fail(QStringLiteral("the agent at %1 does not take a request").arg(QString::fromLocal8Bit(socketPath)));
        const ssize_t n = ::send(s.fd, request + sent, sizeof(request) - sent, MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return fail(QStringLiteral("the agent at %1: %2").arg(QString::fromLocal8Bit(socketPath),
                                                                   QString::fromLocal8Bit(std::strerror(errno))));
        if (n > 0)
            sent += std::size_t(n);
    }
    unsigned char head[5];
    std::size_t got = 0;
    while (got < sizeof(head)) {
        if (!waitFor(s.fd, POLLIN, clock, deadline))
            return fail(QStringLiteral("the agent at %1 did not answer within %2 ms")
                            .arg(QString::fromLocal8Bit(socketPath))
                            .arg(deadline.count()));
        const ssize_t n = ::recv(s.fd, head + got, sizeof(head) - got, 0);
        if (n == 0)
            return fail(QStringLiteral("the agent at %1 closed the connection").arg(QString::fromLocal8Bit(socketPath)));
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return fail(QStringLiteral("the agent at %1: %2").arg(QString::fromLocal8Bit(socketPath),
                                                                   QString::fromLocal8Bit(std::strerror(errno))));
        if (n > 0)
            got += std::size_t(n);
    }
    // SSH_AGENT_IDENTITIES_ANSWER (12), or SSH_AGENT_FAILURE (5): either way the agent is alive.
    return head[4] == 12 || head[4] == 5 ? true : fail(QStringLiteral("the agent at %1 answered with message %2")
                                                           .arg(QString::fromLocal8Bit(socketPath))
                                                           .arg(int(head[4])));
}

} // namespace pd
