// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

namespace pd {

class ClusterStore;
struct ProxyHealth;

// The status bar's words: what the open profile is and whether it validates, and how the proxy
// answered its last /healthcheck. Plain text or the status bar's small HTML; no widget.
class StatusSummary final {
    Q_DECLARE_TR_FUNCTIONS(pd::StatusSummary)
public:
    // "name · 8 nodes · 72 engines (… prefill, … decode) · proxy host:port (generation) · launcher …",
    // then which variable the API key comes from and whether it is set (never its value).
    static QString profile(const ClusterStore &store);
    // "3 errors, 1 warning" (errors in the critical colour) or "profile valid, N warnings"; empty
    // without a profile.
    static QString validationHtml(const ClusterStore &store);
    // "● proxy host:port: 2 prefill · 4 decode · 7 in flight", or "✖ proxy host:port unreachable".
    static QString proxyHtml(const ClusterStore &store, const ProxyHealth &health);
    // The tooltip under proxyHtml: when the last answer came, or the error and when.
    static QString proxyToolTip(const ProxyHealth &health);
};

} // namespace pd
