// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// A proxy without /instances (vllm-ascend v0.9.1-dev, main before v0.13) cannot be listed: its
// membership is the instance lists on its command line, fixed for the life of the process. These read
// them from the running proxy (EngineControl::proxyCommandLine) into the scaling context, so plans,
// the membership table and ProxyRestartScale start from what the proxy really routes to.
namespace pd {

struct ScaleContext;

// The instance lists of a proxy's argv (either generation; v0.9.1-dev's -num/-inc expanded as that proxy
// does). Nullopt with *problem when the arguments do not parse.
std::optional<ProxyLists> proxyListsFromArguments(const QStringList &argv, QString *problem);

// When the context's proxy answers without an /instances API: reads the running proxy's command line,
// applies its lists to the membership table and sets context.commandLineMembership; otherwise clears
// it. `done` gets an empty string when the lists are known (or not needed), else why not.
void syncCommandLineMembership(ScaleContext &context, std::function<void(const QString &why)> done = {});

} // namespace pd
