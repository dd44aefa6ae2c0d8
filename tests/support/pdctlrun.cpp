// SPDX-License-Identifier: MIT
#include "pdctlrun.h"

#include <QProcess>

namespace pd::test {

QString pdctlPath()
{
    return QStringLiteral(PD_BINARY_DIR "/app/pdctl/pdctl");
}

PdctlRun runPdctl(const QStringList &args, const PdctlOptions &options)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &entry : options.environment)
        environment.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(pdctlPath(), args);
    PdctlRun run;
    if (!process.waitForStarted(5000))
        return run;
    if (!process.waitForFinished(options.timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    if (process.exitStatus() == QProcess::NormalExit && process.state() == QProcess::NotRunning)
        run.exitCode = process.exitCode();
    return run;
}

} // namespace pd::test
