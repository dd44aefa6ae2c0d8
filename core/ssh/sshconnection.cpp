// SPDX-License-Identifier: MIT
#include "sshconnection.h"
#include "ssherrortext.h"

#include "sshjumptunnel.h"
#include "sshkeyring.h"
#include "sshprompts.h"
#include "knownhosts.h"
#include "sshagentprobe.h"

#include <QDir>
#include <QRegularExpression>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace pd {

namespace {

int authCallback(const char *prompt, char *buf, size_t len, int echo, int verify, void *userdata)
{
    Q_UNUSED(echo);
    Q_UNUSED(verify);
    auto *connection = static_cast<SshConnection *>(userdata);
    return connection->askPassphrase(prompt, buf, len);
}

// libssh 0.10 turns a config ProxyJump into this ProxyCommand for the OpenSSH client binary:
// "ssh[ -l USER][ -p PORT][ -J NEXT] -W '[%h]:%p' HOST". We take the bastion back out of it.
QString jumpFromProxyCommand(const QString &command, QString *error)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^ssh(?: -l (\S+))?(?: -p (\S+))?(?: -J (\S+))? -W '\[%h\]:%p' (\S+)$)"));
    const QRegularExpressionMatch m = pattern.match(command);
    if (!m.hasMatch())
        return {};
    if (!m.captured(3).isEmpty()) {
        *error = QStringLiteral("ProxyJump with more than one bastion (%1) is not supported").arg(m.captured(3));
        return {};
    }
    QString jump = m.captured(4);
    if (!m.captured(1).isEmpty())
        jump = m.captured(1) + QLatin1Char('@') + jump;
    if (!m.captured(2).isEmpty())
        jump += QLatin1Char(':') + m.captured(2);
    return jump;
}

void enableTcpKeepalive(int fd, std::chrono::milliseconds idle)
{
    int on = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0)
        return; // not a TCP socket (a ProxyJump socket pair): the bastion's TCP carries it
    int idleSeconds = std::max(1, static_cast<int>(idle.count() / 1000));
    int interval = 5;
    int count = 3;
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idleSeconds, sizeof idleSeconds);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

} // namespace

SshConnection::SshConnection(SshHostSpec spec, const SshSettings &settings, SshPrompts *prompts, SshKeyring *keyring)
    : m_spec(std::move(spec))
    , m_settings(settings)
    , m_prompts(prompts)
    , m_keyring(keyring)
    , m_resolvedHost(m_spec.target.host)
    , m_resolvedPort(m_spec.target.port)
{
}

SshConnection::~SshConnection()
{
    close();
}

QString SshConnection::label() const
{
    CommandTarget shown = m_spec.target;
    shown.host = m_resolvedHost;
    shown.port = m_resolvedPort;
    return targetLabel(shown);
}

QString SshConnection::fail(const QString &why)
{
    const QString message = label() + QStringLiteral(": ") + why;
    close();
    return message;
}

bool SshConnection::isOpen() const
{
    return m_session && ssh_is_connected(m_session);
}

void SshConnection::close()
{
    if (m_session) {
        if (ssh_is_connected(m_session))
            ssh_disconnect(m_session);
        ssh_free(m_session);
        m_session = nullptr;
    }
    m_tunnel.reset(); // after the session: its socket end closes first
    m_callbacks.reset();
}

int SshConnection::askPassphrase(const char *prompt, char *buf, size_t len)
{
    std::lock_guard lock(m_keyring->promptMutex);
    return copyPassphrase(m_prompts, m_spec.target.node, prompt, buf, len);
}

QString SshConnection::knownHostsFile() const
{
    return m_settings.knownHostsPath.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh/known_hosts")
                                               : m_settings.knownHostsPath;
}

QString SshConnection::applyOptions()
{
    const auto set = [this](ssh_options_e option, const QString &value) {
        return ssh_options_set(m_session, option, value.toLocal8Bit().constData()) == SSH_OK;
    };
    if (m_spec.target.host.isEmpty())
        return QStringLiteral("no host given");
    if (!set(SSH_OPTIONS_HOST, m_spec.target.host))
        return QStringLiteral("invalid host: %1").arg(sshErrorText(m_session));
    bool processConfig = false;
    ssh_options_set(m_session, SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
    // Small request/reply packets: without TCP_NODELAY each one waits for the peer's delayed ACK
    // (measured 44 ms per channel open on loopback; bench/bench_ssh.cpp).
    int noDelay = 1;
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &noDelay);
    if (!m_settings.sshDir.isEmpty())
        set(SSH_OPTIONS_SSH_DIR, m_settings.sshDir);
    if (m_settings.configPath != QLatin1String("none")) {
        const QByteArray path = m_settings.configPath.toLocal8Bit();
        if (ssh_options_parse_config(m_session, path.isEmpty() ? nullptr : path.constData()) < 0)
            return QStringLiteral("cannot read ssh config %1: %2")
                .arg(m_settings.configPath.isEmpty() ? QStringLiteral("~/.ssh/config") : m_settings.configPath,
                    sshErrorText(m_session));
    }
    // What the profile states explicitly wins over ~/.ssh/config (as on the ssh command line);
    // port 22 is the profile's default and leaves a config Port in force.
    if (m_spec.target.port != 22) {
        unsigned int port = static_cast<unsigned int>(m_spec.target.port);
        ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    }
    if (!m_spec.target.user.isEmpty())
        set(SSH_OPTIONS_USER, m_spec.target.user);
    // pdconsole's rule holds whatever ~/.ssh/config says: an unknown key needs the operator's trust and a
    // changed one is refused. `StrictHostKeyChecking no` or `UserKnownHostsFile /dev/null` in the config
    // would otherwise have libssh accept any key silently, so both are set again after the config.
    const QString knownHosts = knownHostsFile();
    QDir().mkpath(QFileInfo(knownHosts).absolutePath());
    set(SSH_OPTIONS_KNOWNHOSTS, knownHosts);
    int strictHostKeyChecking = 1;
    ssh_options_set(m_session, SSH_OPTIONS_STRICTHOSTKEYCHECK, &strictHostKeyChecking);
    if (!m_settings.globalKnownHostsPath.isEmpty())
        set(SSH_OPTIONS_GLOBAL_KNOWNHOSTS, m_settings.globalKnownHostsPath);
    long timeoutSeconds = std::max<long>(1, static_cast<long>(m_settings.connectTimeout.count() / 1000));
    long timeoutMicros = static_cast<long>(m_settings.connectTimeout.count() % 1000) * 1000;
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeoutSeconds);
    if (m_settings.connectTimeout.count() >= 1000)
        ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT_USEC, &timeoutMicros);

    char *host = nullptr;
    if (ssh_options_get(m_session, SSH_OPTIONS_HOST, &host) == SSH_OK && host) {
        m_resolvedHost = QString::fromLocal8Bit(host);
        ssh_string_free_char(host);
    }
    unsigned int port = 22;
    if (ssh_options_get_port(m_session, &port) == SSH_OK)
        m_resolvedPort = static_cast<int>(port);

    QString jump = m_spec.jumpHost;
    char *proxyCommand = nullptr;
    if (ssh_options_get(m_session, SSH_OPTIONS_PROXYCOMMAND, &proxyCommand) == SSH_OK && proxyCommand) {
        QString error;
        const QString fromConfig = jumpFromProxyCommand(QString::fromLocal8Bit(proxyCommand), &error);
        ssh_string_free_char(proxyCommand);
        if (!error.isEmpty())
            return error;
        if (!fromConfig.isEmpty()) {
            ssh_options_set(m_session, SSH_OPTIONS_PROXYCOMMAND, "none");
            if (jump.isEmpty())
                jump = fromConfig;
        }
    }
    if (!jump.isEmpty() && jump != QLatin1String("none")) {
        QString error;
        m_tunnel = SshJumpTunnel::open(SshJumpTunnel::bastionSpec(jump, m_spec.target.node), m_resolvedHost,
            m_resolvedPort, m_settings, m_prompts, m_keyring, &error);
        if (!m_tunnel)
            return error;
        socket_t fd = m_tunnel->takeSessionSocket();
        ssh_options_set(m_session, SSH_OPTIONS_FD, &fd);
    }
    return {};
}

QString SshConnection::open()
{
    close();
    m_reused = false;
    m_session = ssh_new();
    if (!m_session)
        return fail(QStringLiteral("cannot create an SSH session (out of memory)"));
    if (const QString error = applyOptions(); !error.isEmpty())
        return fail(error);
    if (ssh_connect(m_session) != SSH_OK)
        return fail(sshErrorText(m_session));
    enableTcpKeepalive(ssh_get_fd(m_session), m_settings.keepaliveInterval);
    if (const QString error = verifyHostKey(); !error.isEmpty())
        return fail(error);
    if (const QString error = authenticate(); !error.isEmpty())
        return fail(error);
    return {};
}

QString SshConnection::verifyHostKey()
{
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(m_session, &key) != SSH_OK || !key)
        return QStringLiteral("the server sent no host key: %1").arg(sshErrorText(m_session));
    unsigned char *hash = nullptr;
    size_t hashLength = 0;
    HostKeyInfo info;
    info.node = m_spec.target.node;
    info.host = m_resolvedHost;
    info.port = m_resolvedPort;
    info.knownHostsPath = knownHostsFile();
    info.keyType = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLength) == 0) {
        char *fingerprint = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLength);
        info.fingerprint = QString::fromLatin1(fingerprint);
        ssh_string_free_char(fingerprint);
        ssh_clean_pubkey_hash(&hash);
    }
    QByteArray blob;
    char *base64 = nullptr;
    if (ssh_pki_export_pubkey_base64(key, &base64) == SSH_OK && base64) {
        blob = QByteArray(base64);
        ssh_string_free_char(base64);
    }
    ssh_key_free(key);
    if (blob.isEmpty())
        return QStringLiteral("cannot read the host key the server presented: %1").arg(sshErrorText(m_session));

    // Our own reading of known_hosts (core/ssh/knownhosts.h), not libssh's: the ssh config cannot turn it
    // off, @revoked lines count, and no line is too long to read.
    const QStringList files{info.knownHostsPath,
                            m_settings.globalKnownHostsPath.isEmpty() ? QStringLiteral("/etc/ssh/ssh_known_hosts")
                                                                      : m_settings.globalKnownHostsPath};
    const QByteArray type = info.keyType.toLatin1();
    const auto check = [&] {
        std::lock_guard lock(m_keyring->knownHostsMutex);
        return checkKnownHost(files, info.host, info.port, type, blob);
    };
    const QString presented = info.keyType + QLatin1Char(' ') + info.fingerprint;
    const KnownHostCheck first = check();
    const QString where = QStringLiteral("%1:%2").arg(first.file).arg(first.line);
    switch (first.verdict) {
    case KnownHostVerdict::Known:
        return {};
    case KnownHostVerdict::Revoked:
        return QStringLiteral("HOST KEY REVOKED! The node presents %1, which %2 marks @revoked. Refused.")
            .arg(presented, where);
    case KnownHostVerdict::Changed:
        return QStringLiteral("HOST KEY CHANGED! The node now presents %1, which does not match the key "
                              "recorded at %2. Someone may be intercepting the connection, or the node was "
                              "reinstalled. Refused. Verify the new key out of band, then remove the old entry "
                              "yourself (ssh-keygen -R '%3' -f %4).")
            .arg(presented, where, knownHostName(info.host, info.port), first.file);
    case KnownHostVerdict::Other:
        return QStringLiteral("HOST KEY MISMATCH! The node presents %1, but %2 records a key of another type "
                              "for it. Refused; verify the node's keys out of band.")
            .arg(presented, where);
    case KnownHostVerdict::Error:
        return QStringLiteral("cannot check the host key against %1: %2").arg(first.file, first.error);
    case KnownHostVerdict::NotFound:
        break;
    }
    // One question on screen at a time; another session may have trusted this host meanwhile. While a
    // person answers one, other workers do not wait for it: their connect ends now and is tried again
    // (without back-off) once the question is answered, so trusted nodes keep their workers.
    std::unique_lock promptLock(m_keyring->promptMutex, std::defer_lock);
    if (m_prompts && !m_prompts->answersAtOnce()) {
        if (!promptLock.try_lock()) {
            m_deferredByPrompt = true;
            return QStringLiteral("unknown host key %1: the operator is answering another host key question first; "
                                  "this node is asked next")
                .arg(presented);
        }
    } else {
        promptLock.lock();
    }
    if (check().verdict == KnownHostVerdict::Known)
        return {};
    if (!m_prompts || !m_prompts->trustNewHostKey(info))
        return QStringLiteral("unknown host key %1 (not in %2); refused until the operator trusts it")
            .arg(presented, info.knownHostsPath);
    std::lock_guard lock(m_keyring->knownHostsMutex);
    QString error;
    if (!addKnownHost(info.knownHostsPath, info.host, info.port, type, blob, &error))
        return QStringLiteral("cannot add the host key: %1").arg(error);
    return {};
}

QString SshConnection::authenticate()
{
    m_callbacks = std::make_unique<ssh_callbacks_struct>();
    *m_callbacks = {};
    m_callbacks->userdata = this;
    m_callbacks->auth_function = authCallback;
    ssh_callbacks_init(m_callbacks.get());
    ssh_set_callbacks(m_session, m_callbacks.get());

    if (ssh_userauth_none(m_session, nullptr) == SSH_AUTH_SUCCESS)
        return {};
    QStringList tried;
    if (!m_spec.identityFile.isEmpty()) {
        QString error;
        ssh_key key = m_keyring->privateKey(m_spec.identityFile, m_spec.target.node, m_prompts, &error);
        if (key && ssh_userauth_publickey(m_session, nullptr, key) == SSH_AUTH_SUCCESS)
            return {};
        tried << (key ? QStringLiteral("%1 (key not accepted)").arg(m_spec.identityFile) : error);
    }
    // The agent (SSH_AUTH_SOCK), then ~/.ssh/config IdentityFile and the default ~/.ssh/id_*;
    // encrypted ones ask their passphrase through authCallback. libssh waits on the agent without a
    // deadline: one that does not answer in time is left out (a path that cannot exist disables it).
    QString agentNote = QStringLiteral("ssh-agent");
    const QByteArray agentSocket = qgetenv("SSH_AUTH_SOCK");
    if (!agentSocket.isEmpty()) {
        QString why;
        if (!sshAgentAnswers(agentSocket, m_settings.agentTimeout, &why)) {
            ssh_options_set(m_session, SSH_OPTIONS_IDENTITY_AGENT, "/nonexistent/pdconsole-agent-left-out");
            agentNote = QStringLiteral("ssh-agent left out: %1").arg(why);
        }
    }
    const int rc = ssh_userauth_publickey_auto(m_session, nullptr, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return {};
    tried << QStringLiteral("%1, ~/.ssh/config IdentityFile and default identities").arg(agentNote);
    char *user = nullptr;
    QString userName;
    if (ssh_options_get(m_session, SSH_OPTIONS_USER, &user) == SSH_OK && user) {
        userName = QString::fromLocal8Bit(user);
        ssh_string_free_char(user);
    }
    return QStringLiteral("authentication failed for user %1 (tried: %2): %3")
        .arg(userName, tried.join(QStringLiteral("; ")),
            rc == SSH_AUTH_DENIED ? QStringLiteral("no key was accepted") : sshErrorText(m_session));
}

} // namespace pd
