// SPDX-License-Identifier: MIT
#pragma once

#include "triage/problem.h"

#include <QSet>

#include <optional>

// Which new problems become a desktop notification: the top severities only, never an acknowledged
// one, at most one message per interval (what arrives meanwhile is summed up in the next message,
// if it is still a problem then). The tray icon only shows what this decides.
namespace pd {

struct NotificationSettings {
    bool enabled = true;
    ProblemSeverity minSeverity = ProblemSeverity::Error; // Critical and Error by default
    int minIntervalMs = 30000; // at most one message per 30 s
    int maxLines = 3; // problems named in one message
    bool operator==(const NotificationSettings &) const = default;
};

struct Notification {
    ProblemSeverity severity = ProblemSeverity::Warning;
    QString title; // "Engine stalled — d1 · 127.0.0.7:9003 (DP 19)" or "3 new problems"
    QString body; // one line per problem, "and N more"
    QStringList keys;
};

class NotificationPolicy {
public:
    void setSettings(const NotificationSettings &settings) { m_settings = settings; }
    const NotificationSettings &settings() const { return m_settings; }

    // Called once per triage update: `appeared` are the new problems, `current` every problem now.
    // Returns the message to show now, if any.
    std::optional<Notification> decide(
        const QList<Problem> &appeared, const QList<Problem> &current, std::int64_t nowMs);

    int heldBack() const { return int(m_pending.size()); }

private:
    NotificationSettings m_settings;
    QList<QString> m_pending; // new, notifiable, not yet announced (rate limit)
    std::int64_t m_lastShownMs = 0;
    bool m_shownOnce = false;
};

} // namespace pd
