// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

// Sets the membership table's listener timing (how long an add may stay WAITING, proxy-api §8.1,
// §13.3) from the best source there is: the running proxy's own command line, read through the
// context's EngineControl; else a timing read from the running proxy before (restored from the
// membership journal); else the context's planned timing (what this console starts the proxy with).
// Run when a profile is opened and after every proxy start.
namespace pd {

struct ScaleContext;

// `done` (optional) gets an empty string when the running proxy's command line was read, else why not.
void syncListenerTiming(ScaleContext &context, std::function<void(const QString &why)> done = {});

} // namespace pd
