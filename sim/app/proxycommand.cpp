// SPDX-License-Identifier: MIT
#include "commands.h"

#include "proxy/simproxy.h"

#include <QCoreApplication>
#include <QTextStream>

// `pdsim proxy [flags]`: the simulated vllm-ascend load-balance proxy, with the real proxy's flags
// (see docs/pdsim-proxy.md). print() lines go to stdout, logger lines and tracebacks to stderr.
int pd::sim::runProxyCommand(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString error;
    int exitCode = 0;
    const auto options = ProxyOptions::fromArguments(arguments.mid(1), &error, &exitCode);
    if (!options) {
        (exitCode == 0 ? out : err) << error;
        return exitCode;
    }
    SimProxy proxy(*options);
    QObject::connect(&proxy, &SimProxy::output, &proxy, [&out, &err](ProxyStream stream, const QString &line) {
        QTextStream &s = stream == ProxyStream::Stdout ? out : err;
        s << line << '\n';
        s.flush();
    });
    if (!proxy.listen(&error)) {
        err << "ERROR:    [Errno 98] error while attempting to bind on address (" << options->host << ", "
            << options->port << "): " << error << '\n';
        return 1;
    }
    err << "INFO:     Uvicorn running on http://" << options->host << ':' << proxy.port()
        << " (Press CTRL+C to quit)\n";
    err.flush();
    return QCoreApplication::exec();
}
