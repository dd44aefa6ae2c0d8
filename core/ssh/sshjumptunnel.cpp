// SPDX-License-Identifier: MIT
#include "sshjumptunnel.h"

#include "sshconnection.h"

#include <libssh/libssh.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pd {

SshHostSpec SshJumpTunnel::bastionSpec(const QString &jump, const QString &forNode)
{
    SshHostSpec spec;
    QString rest = jump.trimmed();
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        spec.target.user = rest.left(at);
        rest = rest.mid(at + 1);
    }
    // "host:port", "[v6]:port" or a bare host / config alias
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        const QString after = close > 0 ? rest.mid(close + 1) : QString();
        if (after.startsWith(QLatin1Char(':')))
            spec.target.port = after.mid(1).toInt();
        rest = rest.mid(1, close - 1);
    } else if (rest.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        spec.target.port = rest.mid(colon + 1).toInt();
        rest = rest.left(colon);
    }
    spec.target.host = rest;
    spec.target.node = QStringLiteral("bastion %1 for %2").arg(rest, forNode);
    spec.jumpHost = QStringLiteral("none"); // one hop: the bastion itself is reached directly
    return spec;
}

std::unique_ptr<SshJumpTunnel> SshJumpTunnel::open(const SshHostSpec &bastion, const QString &host, int port,
    const SshSettings &settings, SshPrompts *prompts, SshKeyring *keyring, QString *error)
{
    std::unique_ptr<SshJumpTunnel> tunnel(new SshJumpTunnel);
    tunnel->m_bastion = std::make_unique<SshConnection>(bastion, settings, prompts, keyring);
    if (const QString why = tunnel->m_bastion->open(); !why.isEmpty()) {
        *error = QStringLiteral("via ") + why;
        return nullptr;
    }
    ssh_session session = tunnel->m_bastion->rawSession();
    tunnel->m_channel = ssh_channel_new(session);
    if (!tunnel->m_channel
        || ssh_channel_open_forward(tunnel->m_channel, host.toLocal8Bit().constData(), port, "127.0.0.1", 22)
            != SSH_OK) {
        const char *why = ssh_get_error(session);
        *error = QStringLiteral("the bastion %1 cannot open a tunnel to %2:%3: %4")
                     .arg(tunnel->m_bastion->label(), host)
                     .arg(port)
                     .arg(QString::fromUtf8(why));
        return nullptr;
    }
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        *error = QStringLiteral("cannot create a socket pair for the tunnel: %1")
                     .arg(QString::fromLocal8Bit(strerror(errno)));
        return nullptr;
    }
    tunnel->m_localEnd = ends[0];
    tunnel->m_sessionEnd = ends[1];
    tunnel->m_thread = std::thread([t = tunnel.get()] { t->pump(); });
    return tunnel;
}

SshJumpTunnel::~SshJumpTunnel()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_localEnd >= 0)
        ::close(m_localEnd);
    if (m_sessionEnd >= 0)
        ::close(m_sessionEnd);
    if (m_channel) {
        if (ssh_channel_is_open(m_channel))
            ssh_channel_close(m_channel);
        ssh_channel_free(m_channel);
    }
    m_bastion.reset();
}

int SshJumpTunnel::takeSessionSocket()
{
    const int fd = m_sessionEnd;
    m_sessionEnd = -1;
    return fd;
}

void SshJumpTunnel::pump()
{
    pumpUntilClosed();
    // Either side ended: the target's session sees end-of-file at once instead of waiting out a
    // timeout.
    shutdown(m_localEnd, SHUT_RDWR);
}

void SshJumpTunnel::pumpUntilClosed()
{
    char buffer[32768];
    const int bastionFd = ssh_get_fd(m_bastion->rawSession());
    const auto writeAll = [this](const char *data, ssize_t n) {
        while (n > 0 && !m_stop) {
            const ssize_t w = ::write(m_localEnd, data, static_cast<size_t>(n));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return false;
            data += w;
            n -= w;
        }
        return true;
    };
    bool localOpen = true;
    while (!m_stop) {
        pollfd fds[2] = { { m_localEnd, static_cast<short>(localOpen ? POLLIN : 0), 0 }, { bastionFd, POLLIN, 0 } };
        if (poll(fds, 2, 100) < 0 && errno != EINTR)
            return;
        if (localOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(m_localEnd, buffer, sizeof buffer);
            if (n > 0) {
                if (ssh_channel_write(m_channel, buffer, static_cast<uint32_t>(n)) != n)
                    return;
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                localOpen = false; // the target's session closed its end
                ssh_channel_send_eof(m_channel);
                return;
            }
        }
        for (;;) {
            const int n = ssh_channel_read_nonblocking(m_channel, buffer, sizeof buffer, 0);
            if (n == SSH_ERROR)
                return;
            if (n <= 0)
                break;
            if (!writeAll(buffer, n))
                return;
        }
        if (ssh_channel_is_eof(m_channel) || ssh_channel_is_closed(m_channel)) {
            return;
        }
    }
}

} // namespace pd
