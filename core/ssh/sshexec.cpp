// SPDX-License-Identifier: MIT
// SshConnection: running a command on a channel, SFTP upload, keepalive.
#include "sshconnection.h"
#include "ssherrortext.h"

#include <QElapsedTimer>
#include <QRandomGenerator>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fcntl.h>

namespace pd {

namespace {

QByteArray singleQuoted(const QByteArray &text)
{
    QByteArray quoted = "'";
    for (char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + '\'';
}

QByteArray timeoutSeconds(std::chrono::milliseconds ms)
{
    return QByteArray::number(static_cast<double>(ms.count()) / 1000.0, 'f', 3);
}

// coreutils timeout(1) puts the command in its own process group and signals the whole group, so
// children of a timed-out command end too; detached engines (setsid) are in their own session and
// are not touched. Exit 124: ended by TERM, 137: needed KILL.
QByteArray withRemoteTimeout(
    const QByteArray &command, std::chrono::milliseconds timeout, std::chrono::milliseconds killGrace)
{
    return "timeout -k " + timeoutSeconds(killGrace) + ' ' + timeoutSeconds(timeout) + " sh -c " + singleQuoted(command);
}

void appendBounded(QByteArray &to, const char *data, int n, qsizetype limit)
{
    const qsizetype room = limit - to.size();
    if (room > 0)
        to.append(data, std::min<qsizetype>(room, n));
}

struct ChannelGuard {
    ssh_channel channel;
    ~ChannelGuard()
    {
        if (!channel)
            return;
        if (ssh_channel_is_open(channel))
            ssh_channel_close(channel);
        ssh_channel_free(channel);
    }
};

} // namespace

CommandResult SshConnection::exec(
    const QByteArray &command, std::chrono::milliseconds timeout, const std::atomic_bool &cancel)
{
    using namespace std::chrono_literals;
    QElapsedTimer clock;
    clock.start();
    CommandResult result;
    const auto finish = [&](const QString &error) {
        result.error = error.isEmpty() ? QString() : label() + QStringLiteral(": ") + error;
        result.elapsedMs = clock.elapsed();
        return result;
    };
    if (!isOpen())
        return finish(QStringLiteral("not connected"));
    ChannelGuard guard { ssh_channel_new(m_session) };
    const auto dropSession = [&] {
        guard.channel = nullptr; // ssh_free() frees the session's channels
        close();
    };
    if (!guard.channel || ssh_channel_open_session(guard.channel) != SSH_OK) {
        const QString error = QStringLiteral("cannot open a channel: %1").arg(sshErrorText(m_session));
        dropSession();
        return finish(error);
    }
    const bool limited = timeout.count() > 0;
    const QByteArray line = limited ? withRemoteTimeout(command, timeout, m_settings.killGrace) : command;
    if (ssh_channel_request_exec(guard.channel, line.constData()) != SSH_OK) {
        const QString error = QStringLiteral("the node refused to run the command: %1").arg(sshErrorText(m_session));
        dropSession();
        return finish(error);
    }
    result.started = true;
    ssh_channel_send_eof(guard.channel); // commands never wait for our stdin

    // The node ends the command at the timeout; if the node itself stops answering, give up a
    // little later and drop the session.
    const qint64 guardMs = limited ? (timeout + m_settings.killGrace + 3s).count() : -1;
    char buffer[32768];
    const qsizetype limit = m_settings.maxOutputBytes;
    bool transportError = false;
    const auto drainStderr = [&] {
        for (;;) {
            const int n = ssh_channel_read_nonblocking(guard.channel, buffer, sizeof buffer, 1);
            if (n == SSH_ERROR)
                transportError = true;
            if (n <= 0)
                return;
            appendBounded(result.err, buffer, n, limit);
        }
    };
    for (;;) {
        const int n = ssh_channel_read_timeout(guard.channel, buffer, sizeof buffer, 0, 100);
        if (n == SSH_ERROR) {
            transportError = true;
            break;
        }
        if (n > 0)
            appendBounded(result.out, buffer, n, limit);
        drainStderr();
        if (transportError)
            break;
        if (ssh_channel_is_eof(guard.channel) || ssh_channel_is_closed(guard.channel)) {
            for (int m; (m = ssh_channel_read_nonblocking(guard.channel, buffer, sizeof buffer, 0)) > 0;)
                appendBounded(result.out, buffer, m, limit);
            drainStderr();
            break;
        }
        if (cancel.load()) {
            ssh_channel_request_send_signal(guard.channel, "TERM");
            dropSession();
            return finish(QStringLiteral("cancelled (the SSH pool is shutting down)"));
        }
        if (guardMs >= 0 && clock.elapsed() > guardMs) {
            result.timedOut = true;
            ssh_channel_request_send_signal(guard.channel, "KILL");
            dropSession();
            return finish(QStringLiteral("no answer %1 s after the command's timeout of %2 s; "
                                         "session dropped")
                              .arg((guardMs - timeout.count()) / 1000)
                              .arg(timeout.count() / 1000.0));
        }
    }
    if (transportError) {
        const QString error = QStringLiteral("connection lost while the command ran: %1").arg(sshErrorText(m_session));
        dropSession();
        return finish(error);
    }
    result.exitStatus = ssh_channel_get_exit_status(guard.channel);
    if (limited && (result.exitStatus == 124 || result.exitStatus == 137) && clock.elapsed() >= timeout.count()) {
        result.timedOut = true;
        return finish(QStringLiteral("command timed out after %1 s and was ended on the node (%2)")
                          .arg(timeout.count() / 1000.0)
                          .arg(result.exitStatus == 124 ? QStringLiteral("SIGTERM") : QStringLiteral("SIGKILL")));
    }
    if (result.exitStatus < 0)
        return finish(QStringLiteral("the command ended without an exit status"));
    return finish({});
}

QString SshConnection::upload(const QByteArray &data, const QString &remotePath, int mode)
{
    const auto failed = [&](const QString &why) -> QString { return label() + QStringLiteral(": ") + why; };
    if (!isOpen())
        return failed(QStringLiteral("not connected"));
    sftp_session sftp = sftp_new(m_session);
    if (!sftp)
        return failed(QStringLiteral("cannot start SFTP: %1").arg(sshErrorText(m_session)));
    struct SftpGuard {
        sftp_session s;
        ~SftpGuard() { sftp_free(s); }
    } sftpGuard { sftp };
    if (sftp_init(sftp) != SSH_OK)
        return failed(
            QStringLiteral("cannot start SFTP (is the sftp subsystem enabled?): %1").arg(sshErrorText(m_session)));
    const QByteArray target = remotePath.toUtf8();
    const QByteArray temporary
        = target + ".pdconsole-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    const auto sftpError
        = [&] { return QStringLiteral("%1 (SFTP error %2)").arg(sshErrorText(m_session)).arg(sftp_get_error(sftp)); };
    sftp_file file = sftp_open(sftp, temporary.constData(), O_WRONLY | O_CREAT | O_EXCL, static_cast<mode_t>(mode));
    if (!file)
        return failed(QStringLiteral("cannot create %1: %2").arg(QString::fromUtf8(temporary), sftpError()));
    qsizetype offset = 0;
    QString error;
    while (offset < data.size()) {
        const size_t chunk = static_cast<size_t>(std::min<qsizetype>(16384, data.size() - offset));
        const ssize_t written = sftp_write(file, data.constData() + offset, chunk);
        if (written <= 0) {
            error = QStringLiteral("writing %1 failed at byte %2: %3")
                        .arg(QString::fromUtf8(temporary))
                        .arg(offset)
                        .arg(sftpError());
            break;
        }
        offset += written;
    }
    if (sftp_close(file) != SSH_OK && error.isEmpty())
        error = QStringLiteral("closing %1 failed: %2").arg(QString::fromUtf8(temporary), sftpError());
    if (error.isEmpty() && sftp_chmod(sftp, temporary.constData(), static_cast<mode_t>(mode)) != SSH_OK)
        error = QStringLiteral("chmod %1 failed: %2").arg(QString::number(mode, 8), sftpError());
    if (!error.isEmpty()) {
        sftp_unlink(sftp, temporary.constData());
        return failed(error);
    }
    // SFTP v3 rename refuses an existing target and libssh 0.10 has no posix-rename: rename(2)
    // through mv on the node replaces the file atomically.
    static const std::atomic_bool never { false };
    const CommandResult moved
        = exec("mv -f -- " + singleQuoted(temporary) + ' ' + singleQuoted(target), std::chrono::seconds(30), never);
    if (!moved.ok()) {
        if (isOpen())
            sftp_unlink(sftp, temporary.constData());
        return moved.error.isEmpty() ? failed(
                   QStringLiteral("renaming to %1 failed: %2").arg(remotePath, QString::fromUtf8(moved.err.trimmed())))
                                     : moved.error;
    }
    return {};
}

bool SshConnection::keepalive()
{
    if (!isOpen())
        return false;
    // An SSH_MSG_IGNORE keeps middleboxes' state alive and fails fast on a reset connection; a
    // silently dead peer is caught by TCP keepalive on the socket and by the next command's timeout.
    if (ssh_send_ignore(m_session, "pdconsole") != SSH_OK)
        return false;
    return ssh_is_connected(m_session);
}

} // namespace pd
