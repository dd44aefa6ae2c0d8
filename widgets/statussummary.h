// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

namespace pd {

class ClusterStore;
class StateTracker;
struct CanaryStatus;
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

    // The incident headline: each pool's serving engines against those expected to serve (listed by the
    // proxy, draining out or not, unless the operator took them out on purpose), and what the clients
    // get (the canary's window).
    struct Headline {
        int prefillServing = 0;
        int prefillExpected = 0;
        int decodeServing = 0;
        int decodeExpected = 0;
        bool canary = false; // a canary runs
        int canaryWindow = 0;
        int canaryFailed = 0;
        bool clientsFailing = false; // the canary's newest requests failed (triage raises it)
    };
    static Headline headline(const ClusterStore &store, const StateTracker &tracker, const CanaryStatus &canary);
    // proxyHtml with the headline: "● proxy host:port · prefill 8/8 · decode 32/48 serving · clients 100 % ok
    // · 7 in flight". The mark is green only when every pool serves what is expected and no client
    // request fails: amber (▲) for lost capacity, red (✖) while clients fail or the proxy does not answer.
    static QString proxyHtml(const ClusterStore &store, const ProxyHealth &health, const Headline &headline);
    // The tooltip under proxyHtml: when the last answer came, or the error and when.
    static QString proxyToolTip(const ProxyHealth &health);
};

} // namespace pd
