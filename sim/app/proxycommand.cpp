// SPDX-License-Identifier: MIT
#include "commands.h"

#include "proxy/simproxy.h"
#include "simlog/logfile.h"

#include <QCoreApplication>
#include <QTextStream>

// `pdsim proxy [flags]`: the simulated vllm-ascend load-balance proxy, with the real proxy's flags
// (see docs/pdsim-proxy.md). print() lines go to stdout, logger lines and tracebacks to stderr.
// `--pdsim-log FILE` (pdsim's own flag, taken out before the proxy's argparse sees the rest, since the
// real proxy would read `--log` as `--log-level`) also writes everything, access lines included, to FILE.
int pd::sim::runProxyCommand(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString error;
    int exitCode = 0;
    QStringList proxyArguments = arguments.mid(1);
    QString logPath;
    const qsizetype logFlag = proxyArguments.indexOf(QStringLiteral("--pdsim-log"));
    if (logFlag >= 0) {
        if (logFlag + 1 >= proxyArguments.size()) {
            err << "pdsim proxy: --pdsim-log needs a FILE\n";
            return 2;
        }
        logPath = proxyArguments.at(logFlag + 1);
        proxyArguments.remove(logFlag, 2);
    }
    auto options = ProxyOptions::fromArguments(proxyArguments, &error, &exitCode);
    if (!options) {
        (exitCode == 0 ? out : err) << error;
        return exitCode;
    }
    std::unique_ptr<LogFile> log;
    if (!logPath.isEmpty()) {
        log = std::make_unique<LogFile>(logPath);
        if (!log->open(&error)) {
            err << "pdsim proxy: " << error << '\n';
            return 1;
        }
        log->rotate();
        options->accessLog = true;
    }
    SimProxy proxy(*options);
    QObject::connect(&proxy, &SimProxy::output, &proxy, [&out, &err, &log](ProxyStream stream, const QString &line) {
        QTextStream &s = stream == ProxyStream::Stdout ? out : err;
        s << line << '\n';
        s.flush();
        if (log)
            log->append(line.toUtf8());
    });
    QObject::connect(&proxy, &SimProxy::accessLine, &proxy, [&out, &log](const QString &line) {
        out << line << '\n';
        out.flush();
        if (log)
            log->append(line.toUtf8());
    });
    if (!proxy.listen(&error)) {
        err << "ERROR:    [Errno 98] error while attempting to bind on address (" << options->host << ", "
            << options->port << "): " << error << '\n';
        return 1;
    }
    err << "INFO:     Uvicorn running on http://" << options->host << ':' << proxy.port()
        << " (Press CTRL+C to quit)\n";
    err.flush();
    if (log) {
        for (const QString &line : proxy.startupLines())
            log->append(line.toUtf8());
    }
    const int status = QCoreApplication::exec();
    if (log) {
        for (const QString &line : proxy.shutdownLines())
            log->append(line.toUtf8());
    }
    return status;
}
