// SPDX-License-Identifier: MIT
#include "exec/runnerfactory.h"

#include "exec/localrunner.h"

#include <QHostAddress>
#include <QNetworkInterface>

namespace pd {

DefaultRunnerFactory::DefaultRunnerFactory()
    : m_local(std::make_shared<LocalRunner>())
{
}

void DefaultRunnerFactory::setRemoteRunner(std::shared_ptr<CommandRunner> runner)
{
    m_remote = std::move(runner);
}

bool DefaultRunnerFactory::isLocalAddress(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    if (address.isNull())
        return false;
    if (address.isLoopback())
        return true;
    const QList<QHostAddress> own = QNetworkInterface::allAddresses();
    return own.contains(address);
}

std::shared_ptr<CommandRunner> DefaultRunnerFactory::runner(const CommandTarget &target, QString *error)
{
    const bool local = target.transport == CommandTarget::Transport::Local
                       || (target.transport == CommandTarget::Transport::Auto && isLocalAddress(target.host));
    if (local)
        return m_local;
    if (m_remote)
        return m_remote;
    if (error) {
        *error = QStringLiteral("node %1 (%2): no runner for remote nodes in this build; "
                                "only nodes on this machine (loopback or own addresses) can be reached")
                     .arg(target.node, target.host);
    }
    return nullptr;
}

} // namespace pd
