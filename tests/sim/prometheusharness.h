// SPDX-License-Identifier: MIT
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

// Debian's real prometheus for tests: a config with the given static targets scraped every second,
// its TSDB in a temporary directory, listening on 127.0.0.1 on a port found free by binding and
// releasing (prometheus cannot take port 0; a clash is retried with another port). Stopped by its
// PID (the QProcess this harness started) in the destructor; the directory goes with it.
namespace pd::test {

class PrometheusHarness final {
public:
    PrometheusHarness();
    ~PrometheusHarness();
    PrometheusHarness(const PrometheusHarness &) = delete;
    PrometheusHarness &operator=(const PrometheusHarness &) = delete;

    static QString binary(); // empty when prometheus is not installed

    // Writes the config and starts prometheus, waiting (bounded) until /-/ready answers 200.
    bool start(const QStringList &targets, QString *error);
    void stop();
    QUrl url() const { return m_url; }
    qint64 pid() const;
    // Waits (bounded, spinning the event loop) until every target has `up` samples.
    bool waitForScrapes(int targets, int timeoutMs, QString *error);

private:
    bool startOnce(QString *error, bool *portClash);

    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    QUrl m_url;
};

} // namespace pd::test
