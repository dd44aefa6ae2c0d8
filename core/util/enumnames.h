// SPDX-License-Identifier: MIT
#pragma once

#include <QLatin1String>
#include <QString>

#include <cstddef>

namespace pd {

// How many values an enum numbered from 0 has: specialised right after each enum whose names come
// from a table (enumName), so that a table without a name for every value does not compile.
template<class Enum> inline constexpr std::size_t enumCount = 0;

// The name of `value` in `names` (one per value, in declaration order); `fallback` for a value
// outside the enum (a cast from bad data), a null string when that is nullptr.
template<class Enum, std::size_t N> QString enumName(Enum value, const char *const (&names)[N], const char *fallback)
{
    static_assert(N == enumCount<Enum>, "one name for every value of the enum");
    const auto i = std::size_t(value);
    const char *name = i < N ? names[i] : fallback;
    return name ? QString(QLatin1String(name)) : QString();
}

} // namespace pd
