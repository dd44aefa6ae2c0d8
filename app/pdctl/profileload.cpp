// SPDX-License-Identifier: MIT
#include "profileload.h"

#include "cluster/profileformat.h"

namespace pdctl {

std::optional<pd::Profile> loadProfileOrReport(const QString &path, QTextStream &err)
{
    const pd::ProfileLoadResult loaded = pd::loadProfileFile(path);
    if (!loaded.profile) {
        for (const pd::ProfileError &e : loaded.errors)
            err << path << ": " << e.message << '\n';
        if (loaded.errors.isEmpty())
            err << path << ": cannot load the profile\n";
    }
    return loaded.profile;
}

} // namespace pdctl
