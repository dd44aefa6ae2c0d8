// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace pd {

// The proxy's identity of an instance (docs/specs/proxy-api.md §2.2): "localhost" and "127.0.0.1" inside
// the host are replaced by "0.0.0.0" the way Python's str.replace does (so "127.0.0.10:9202" reads
// "0.0.0.00:9202", as the real proxy has it), surrounding white space dropped. Two spellings of one local
// host compare equal under it; the console, the importer, the validator and pdsim's proxy all use it.
QString proxyInstanceKey(const QString &hostPort);
QString proxyInstanceKey(const QString &host, int port);

} // namespace pd
