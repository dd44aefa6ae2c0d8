// SPDX-License-Identifier: MIT
#include "simclock.h"

#include <cmath>

namespace pd::sim {

ScaledClock::ScaledClock(double scale) : m_scale(scale > 0 ? scale : 1.0)
{
    m_timer.start();
}

double ScaledClock::now() const
{
    return double(m_timer.nsecsElapsed()) * 1e-9 * m_scale;
}

qint64 ScaledClock::realMsUntil(double t) const
{
    const double ms = (t - now()) / m_scale * 1000.0;
    if (!(ms > 0))
        return 0;
    return qint64(std::ceil(std::min(ms, 1e9)));
}

} // namespace pd::sim
