// SPDX-License-Identifier: MIT
#pragma once
// A stand-in for `docker` on PATH, for tests of nodes whose engines live in a container: an executable
// `docker` in DIR/fakebin that writes what `record` (a line of bash) prints about its call to
// DIR/docker-calls.log, refuses any call but `exec -i NAME bash -c CMD` (exit 125) and runs CMD here. While
// it lives, PATH starts with DIR/fakebin and FAKE_DOCKER_LOG names the log; both are restored after.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

namespace pd::test {

class FakeDocker final {
public:
    FakeDocker(const QString &dir, const QByteArray &record)
        : m_bin(dir + QStringLiteral("/fakebin"))
        , m_log(dir + QStringLiteral("/docker-calls.log"))
        , m_oldPath(qgetenv("PATH"))
    {
        QFile docker(m_bin + QStringLiteral("/docker"));
        m_ready = QDir().mkpath(m_bin) && docker.open(QIODevice::WriteOnly)
            && docker.write("#!/bin/bash\n" + record
                   + "\n"
                     "[ \"$1\" = exec ] && [ \"$2\" = -i ] && [ \"$4\" = bash ] && [ \"$5\" = -c ] || exit 125\n"
                     "exec bash -c \"$6\"\n")
                > 0;
        docker.close();
        m_ready = m_ready && docker.setPermissions(docker.permissions() | QFileDevice::ExeOwner);
        qputenv("PATH", m_bin.toUtf8() + ':' + m_oldPath);
        qputenv("FAKE_DOCKER_LOG", m_log.toUtf8());
    }
    ~FakeDocker()
    {
        qputenv("PATH", m_oldPath);
        qunsetenv("FAKE_DOCKER_LOG");
    }
    FakeDocker(const FakeDocker &) = delete;
    FakeDocker &operator=(const FakeDocker &) = delete;

    bool isReady() const { return m_ready; } // the script is in place and executable
    QByteArray calls() const // what it recorded so far
    {
        QFile log(m_log);
        return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
    }

private:
    QString m_bin;
    QString m_log;
    QByteArray m_oldPath;
    bool m_ready = false;
};

} // namespace pd::test
