// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

// The name of a file kept per proxy endpoint (the membership and operations journals): a readable stem
// of its host and port ("127.0.0.1-8000") and a short hash of the whole base URL (scheme, path) against
// clashes, "127.0.0.1-8000-1a2b3c4d.json".
namespace pd {

QString perProxyFileName(const QString &proxyBase);

} // namespace pd
