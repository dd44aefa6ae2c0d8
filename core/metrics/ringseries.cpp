// SPDX-License-Identifier: MIT
#include "ringseries.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace pd {

RingSeries::RingSeries(int capacity, int width, int resolutionMs)
    : m_capacity(std::max(1, capacity))
    , m_width(std::max(1, width))
    , m_resolutionMs(std::max(1, resolutionMs))
    // Not value-initialised on purpose: untouched pages stay unresident until a row is written.
    , m_data(new float[std::size_t(m_capacity) * std::size_t(m_width)])
{
}

std::int64_t RingSeries::slotOf(std::int64_t timeMs) const
{
    // Floor division (times before 1970 are not expected, but stay correct).
    std::int64_t q = timeMs / m_resolutionMs;
    if (timeMs % m_resolutionMs < 0)
        --q;
    return q;
}

std::int64_t RingSeries::firstSlot() const
{
    if (m_head == kNoSlot)
        return kNoSlot;
    return std::max(m_first, m_head - m_capacity + 1);
}

void RingSeries::advanceTo(std::int64_t slot)
{
    assert(slot >= 0);
    if (m_head != kNoSlot && slot <= m_head)
        return;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if (m_head == kNoSlot || slot - m_head >= m_capacity) {
        m_first = slot;
        std::fill_n(rowAt(slot), m_width, nan);
    } else {
        for (std::int64_t s = m_head + 1; s <= slot; ++s)
            std::fill_n(rowAt(s), m_width, nan);
    }
    m_head = slot;
}

float *RingSeries::row(std::int64_t slot)
{
    return contains(slot) ? rowAt(slot) : nullptr;
}

const float *RingSeries::row(std::int64_t slot) const
{
    return contains(slot) ? rowAt(slot) : nullptr;
}

float RingSeries::value(std::int64_t slot, int column) const
{
    if (!contains(slot) || column < 0 || column >= m_width)
        return std::numeric_limits<float>::quiet_NaN();
    return rowAt(slot)[column];
}

RingColumn RingSeries::column(int column) const
{
    RingColumn c;
    c.base = m_data.get() + column;
    c.stride = std::size_t(m_width);
    c.capacity = m_capacity;
    c.resolutionMs = m_resolutionMs;
    c.firstSlot = firstSlot();
    c.lastSlot = m_head;
    return c;
}

void RingSeries::clear()
{
    m_head = kNoSlot;
    m_first = kNoSlot;
}

} // namespace pd
