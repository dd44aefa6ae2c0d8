// SPDX-License-Identifier: MIT
#include "sshdharness.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace pd::test {

namespace {

bool writeFile(const QString &path, const QByteArray &data, QString *error,
    QIODevice::OpenMode mode = QIODevice::WriteOnly | QIODevice::Truncate)
{
    QFile file(path);
    if (!file.open(mode) || file.write(data) != data.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

int freePort(const QString &address)
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress(address), 0))
        return 0;
    return probe.serverPort();
}

QByteArray runTool(const QString &program, const QStringList &arguments, QString *error)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(20000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("%1 %2 failed: %3")
                     .arg(program, arguments.join(QLatin1Char(' ')),
                         QString::fromLocal8Bit(process.readAllStandardError()));
        return {};
    }
    return process.readAllStandardOutput();
}

} // namespace

SshdHarness::SshdHarness(int nodes)
{
    for (int i = 0; i < nodes; ++i) {
        auto node = std::make_shared<NodeProcess>();
        node->address = QStringLiteral("127.0.0.%1").arg(i + 1);
        m_nodes.append(node);
    }
}

SshdHarness::~SshdHarness()
{
    for (int i = 0; i < nodeCount(); ++i)
        stopNode(i);
}

QString SshdHarness::sshdPath()
{
    const QString path = QStringLiteral("/usr/sbin/sshd");
    return QFileInfo(path).isExecutable() ? path : QString();
}

QString SshdHarness::currentUser()
{
    const passwd *entry = getpwuid(getuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : qEnvironmentVariable("USER");
}

QString SshdHarness::address(int node) const
{
    return m_nodes.at(node)->address;
}
int SshdHarness::port(int node) const
{
    return m_nodes.at(node)->port;
}
QString SshdHarness::nodeName(int node) const
{
    return QStringLiteral("node%1").arg(node + 1);
}
QString SshdHarness::knownHostsPath() const
{
    return m_dir.filePath(QStringLiteral("known_hosts"));
}
QString SshdHarness::configPath() const
{
    return m_dir.filePath(QStringLiteral("ssh_config"));
}
QString SshdHarness::clientKeyPath() const
{
    return m_dir.filePath(QStringLiteral("client_key"));
}
QString SshdHarness::hostKeyPath(int node) const
{
    return m_dir.filePath(QStringLiteral("host_key_%1").arg(node + 1));
}

CommandTarget SshdHarness::target(int node) const
{
    CommandTarget target;
    target.node = nodeName(node);
    target.host = address(node);
    target.port = port(node);
    target.user = currentUser();
    return target;
}

SshSettings SshdHarness::settings() const
{
    SshSettings settings;
    settings.knownHostsPath = knownHostsPath();
    settings.globalKnownHostsPath = QStringLiteral("/dev/null");
    settings.configPath = configPath();
    settings.sshDir = m_dir.filePath(QStringLiteral("dot-ssh"));
    settings.connectTimeout = std::chrono::milliseconds(5000);
    return settings;
}

Node SshdHarness::profileNode(int index, const QString &name, Role role, int enginePort) const
{
    Node node;
    node.name = name;
    node.address = address(index);
    node.role = role;
    node.ssh.port = port(index);
    node.ssh.user = currentUser();
    node.ssh.identityFile = clientKeyPath();
    node.transport = NodeTransport::Ssh;
    EngineGroup group;
    group.dpSize = 1;
    group.dpSizeLocal = 1;
    group.dpAddress = node.address;
    group.dpPort = 13395 + index;
    group.tpSize = 1;
    group.engineStartPort = enginePort;
    node.engineGroups.append(group);
    return node;
}

bool SshdHarness::keygen(const QString &path, const QByteArray &passphrase, QString *error) const
{
    QFile::remove(path);
    QFile::remove(path + QStringLiteral(".pub"));
    QString why;
    runTool(QStringLiteral("ssh-keygen"),
        { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
            QString::fromUtf8(passphrase), QStringLiteral("-C"), QFileInfo(path).fileName(), QStringLiteral("-f"),
            path },
        &why);
    if (!why.isEmpty()) {
        *error = why;
        return false;
    }
    return true;
}

bool SshdHarness::start(QString *error)
{
    if (!m_dir.isValid()) {
        *error = QStringLiteral("cannot create a temporary directory");
        return false;
    }
    if (sshdPath().isEmpty()) {
        *error = QStringLiteral("/usr/sbin/sshd is not installed");
        return false;
    }
    QDir().mkpath(QStringLiteral("/run/sshd"));
    QDir().mkpath(m_dir.filePath(QStringLiteral("dot-ssh")));
    if (!keygen(clientKeyPath(), {}, error))
        return false;
    QFile pub(clientKeyPath() + QStringLiteral(".pub"));
    if (!pub.open(QIODevice::ReadOnly)
        || !writeFile(m_dir.filePath(QStringLiteral("authorized_keys")), pub.readAll(), error))
        return false;
    if (!writeFile(knownHostsPath(), {}, error))
        return false;
    const QString config = QStringLiteral("Host *\n  User %1\n  IdentityFile %2\n").arg(currentUser(), clientKeyPath());
    if (!writeFile(configPath(), config.toUtf8(), error))
        return false;
    for (int i = 0; i < nodeCount(); ++i) {
        m_nodes[i]->port = freePort(address(i));
        if (m_nodes[i]->port == 0) {
            *error = QStringLiteral("no free port on %1").arg(address(i));
            return false;
        }
        if (!keygen(hostKeyPath(i), {}, error) || !startNode(i, error))
            return false;
    }
    return true;
}

bool SshdHarness::writeSshdConfig(int node, QString *error) const
{
    QStringList lines = {
        QStringLiteral("ListenAddress %1:%2").arg(address(node)).arg(port(node)),
        QStringLiteral("HostKey %1").arg(hostKeyPath(node)),
        QStringLiteral("PidFile %1").arg(m_dir.filePath(QStringLiteral("sshd_%1.pid").arg(node + 1))),
        QStringLiteral("AuthorizedKeysFile %1").arg(m_dir.filePath(QStringLiteral("authorized_keys"))),
        QStringLiteral("UsePAM no"),
        QStringLiteral("StrictModes no"),
        QStringLiteral("PasswordAuthentication no"),
        QStringLiteral("KbdInteractiveAuthentication no"),
        QStringLiteral("PubkeyAuthentication yes"),
        QStringLiteral("PermitRootLogin prohibit-password"),
        QStringLiteral("MaxStartups 100"),
        QStringLiteral("MaxSessions 50"),
        QStringLiteral("LogLevel VERBOSE"),
        QStringLiteral("Subsystem sftp internal-sftp"),
    };
    lines += m_nodes.at(node)->extraConfig;
    return writeFile(m_dir.filePath(QStringLiteral("sshd_config_%1").arg(node + 1)),
        lines.join(QLatin1Char('\n')).toUtf8() + '\n', error);
}

void SshdHarness::setExtraConfig(int node, const QStringList &lines)
{
    m_nodes[node]->extraConfig = lines;
}

bool SshdHarness::startNode(int node, QString *error)
{
    stopNode(node);
    if (!writeSshdConfig(node, error))
        return false;
    auto process = std::make_unique<QProcess>();
    process->setProgram(sshdPath());
    process->setArguments({ QStringLiteral("-f"), m_dir.filePath(QStringLiteral("sshd_config_%1").arg(node + 1)),
        QStringLiteral("-D"), QStringLiteral("-e") });
    // If the test dies without cleaning up, its sshds die with it instead of lingering.
    process->setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGTERM); });
    process->setStandardOutputFile(QProcess::nullDevice());
    process->setStandardErrorFile(m_dir.filePath(QStringLiteral("sshd_%1.log").arg(node + 1)), QIODevice::Append);
    process->start();
    if (!process->waitForStarted(5000)) {
        *error = QStringLiteral("cannot start sshd for %1: %2").arg(nodeName(node), process->errorString());
        return false;
    }
    m_nodes[node]->sshd = std::move(process);
    return waitForBanner(node, error);
}

bool SshdHarness::waitForBanner(int node, QString *error) const
{
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        if (!isRunning(node))
            break;
        QTcpSocket socket;
        socket.connectToHost(address(node), static_cast<quint16>(port(node)));
        if (socket.waitForConnected(1000) && socket.waitForReadyRead(2000) && socket.readAll().startsWith("SSH-"))
            return true;
        QThread::msleep(50);
    }
    QFile log(m_dir.filePath(QStringLiteral("sshd_%1.log").arg(node + 1)));
    log.open(QIODevice::ReadOnly);
    *error = QStringLiteral("sshd for %1 on %2:%3 did not come up: %4")
                 .arg(nodeName(node), address(node))
                 .arg(port(node))
                 .arg(QString::fromLocal8Bit(log.readAll().right(2000)));
    return false;
}

void SshdHarness::stopNode(int node)
{
    std::unique_ptr<QProcess> process = std::move(m_nodes[node]->sshd);
    if (!process || process->state() == QProcess::NotRunning)
        return;
    process->terminate(); // SIGTERM to this sshd's PID only; its sessions' children exit with it
    if (!process->waitForFinished(5000)) {
        process->kill();
        process->waitForFinished(5000);
    }
}

bool SshdHarness::isRunning(int node) const
{
    const auto &process = m_nodes.at(node)->sshd;
    return process && process->state() == QProcess::Running;
}

int SshdHarness::dropSessions(int node)
{
    return signalSessions(node, SIGKILL);
}

int SshdHarness::signalSessions(int node, int signal)
{
    const auto &process = m_nodes.at(node)->sshd;
    if (!process || process->state() != QProcess::Running)
        return 0;
    // Parent of every process, from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold
    // spaces, so read after the last ')').
    QHash<qint64, qint64> parents;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1)
            parents.insert(pid, fields.at(1).toLongLong());
    }
    // Every descendant of the listener: the per-connection monitor, its session process, shells.
    QSet<qint64> tree { process->processId() };
    for (bool grew = true; grew;) {
        grew = false;
        for (auto it = parents.cbegin(); it != parents.cend(); ++it)
            if (tree.contains(it.value()) && !tree.contains(it.key())) {
                tree.insert(it.key());
                grew = true;
            }
    }
    tree.remove(process->processId());
    int signalled = 0;
    for (qint64 pid : std::as_const(tree))
        if (::kill(static_cast<pid_t>(pid), signal) == 0)
            ++signalled;
    return signalled;
}

void SshdHarness::freezeNode(int node, bool frozen)
{
    const auto &process = m_nodes.at(node)->sshd;
    if (!process || process->state() != QProcess::Running)
        return;
    const int signal = frozen ? SIGSTOP : SIGCONT;
    ::kill(static_cast<pid_t>(process->processId()), signal);
    signalSessions(node, signal);
}

bool SshdHarness::regenerateHostKey(int node, QString *error)
{
    return keygen(hostKeyPath(node), {}, error);
}

QString SshdHarness::hostKeyFingerprint(int node) const
{
    QString error;
    const QByteArray out = runTool(QStringLiteral("ssh-keygen"),
        { QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"), QStringLiteral("-f"),
            hostKeyPath(node) + QStringLiteral(".pub") },
        &error);
    // "256 SHA256:abc... comment (ED25519)"
    const QList<QByteArray> words = out.split(' ');
    return words.size() > 1 ? QString::fromLatin1(words.at(1)) : QString();
}

bool SshdHarness::trustAllHostKeys(QString *error)
{
    QByteArray lines;
    for (int i = 0; i < nodeCount(); ++i) {
        QFile pub(hostKeyPath(i) + QStringLiteral(".pub"));
        if (!pub.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read %1").arg(pub.fileName());
            return false;
        }
        const QList<QByteArray> words = pub.readAll().trimmed().split(' ');
        lines += QStringLiteral("[%1]:%2 ").arg(address(i)).arg(port(i)).toLatin1() + words.value(0) + ' '
            + words.value(1) + '\n';
    }
    return writeFile(knownHostsPath(), lines, error);
}

bool SshdHarness::appendClientConfig(const QString &text, QString *error)
{
    // ssh config is first-match-wins: put the new blocks before the catch-all "Host *".
    QFile file(configPath());
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(configPath());
        return false;
    }
    const QByteArray old = file.readAll();
    file.close();
    return writeFile(configPath(), text.toUtf8() + '\n' + old, error);
}

QString SshdHarness::addClientKey(const QString &name, const QByteArray &passphrase, QString *error)
{
    const QString path = m_dir.filePath(name);
    if (!keygen(path, passphrase, error))
        return {};
    QFile pub(path + QStringLiteral(".pub"));
    if (!pub.open(QIODevice::ReadOnly)
        || !writeFile(m_dir.filePath(QStringLiteral("authorized_keys")), pub.readAll(), error,
            QIODevice::WriteOnly | QIODevice::Append))
        return {};
    return path;
}

} // namespace pd::test
