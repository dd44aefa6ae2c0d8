// SPDX-License-Identifier: MIT
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace pd::test {

// `pdsim cluster --profile PROFILE ARGS...` as a child process of a test. start() waits (events running,
// up to 30 s) for pdsim's first line, "ready ... control=HOST:PORT", and keeps the control address;
// stop() and the destructor end it (SIGTERM, then SIGKILL after 10 s). pdsim's stderr goes to the
// test's own.
class PdsimCluster final {
public:
    PdsimCluster() = default;
    ~PdsimCluster();
    PdsimCluster(const PdsimCluster &) = delete;
    PdsimCluster &operator=(const PdsimCluster &) = delete;

    // pdsim's stderr into this file instead of the caller's own (a long run's proxy log); before start().
    void setErrorFile(const QString &path) { m_errorFile = path; }
    // Empty when pdsim is ready; otherwise why not, with what pdsim printed.
    QString start(const QString &profile, const QStringList &extraArguments = {});
    QString control() const { return m_control; } // "host:port" of pdsim's control API
    QString controlUrl(const QString &path) const { return QStringLiteral("http://") + m_control + path; }
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    // True when pdsim ended on SIGTERM within 10 s (it was killed otherwise); true when it was not running.
    bool stop();

private:
    QProcess m_process;
    QString m_control;
    QString m_errorFile;
};

} // namespace pd::test

// Starts `cluster` (a PdsimCluster) with the arguments of PdsimCluster::start(), or ends the test
// function: a failure under CI, a skip elsewhere (a machine without the 127.0.0.x addresses pdsim binds).
#define PD_START_PDSIM(cluster, ...)                                                                             \
    do {                                                                                                       \
        const QString pdStartError = (cluster).start(__VA_ARGS__);                                             \
        if (!pdStartError.isEmpty()) {                                                                         \
            if (qEnvironmentVariableIsSet("CI"))                                                               \
                QFAIL(qPrintable(pdStartError));                                                               \
            QSKIP(qPrintable(pdStartError));                                                                   \
        }                                                                                                      \
    } while (false)
