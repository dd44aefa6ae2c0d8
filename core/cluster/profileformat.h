// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

// The versioned JSON form of a Profile (docs/profile-format.md).
// Loading is strict: syntax errors carry line and column, schema errors a JSON pointer; unknown and
// duplicate keys are errors. Saving writes the canonical form, which loads and saves back byte for byte.
namespace pd {

struct ProfileError {
    QString pointer;   // JSON pointer of the offending value, empty for syntax errors
    int line = 0;      // 1-based, 0 when unknown
    int column = 0;    // 1-based, 0 when unknown
    QString message;

    // "FILE:LINE:COLUMN: message" or "FILE: /pointer: message"
    QString format(const QString &fileName) const;
};

struct ProfileLoadResult {
    std::optional<Profile> profile; // set when errors is empty
    QList<ProfileError> errors;
};

inline constexpr qint64 kMaxProfileBytes = 8 * 1024 * 1024;

ProfileLoadResult parseProfile(const QByteArray &bytes);
ProfileLoadResult loadProfileFile(const QString &path);
QByteArray serializeProfile(const Profile &profile);
// Atomic (QSaveFile). Returns false and sets *error on failure; the old file is then untouched.
bool saveProfileFile(const Profile &profile, const QString &path, QString *error);

} // namespace pd
