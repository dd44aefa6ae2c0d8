// SPDX-License-Identifier: MIT
#include "topology/spatialindex.h"

#include <algorithm>
#include <cmath>

namespace pd {

void SpatialIndex::build(const std::vector<QRectF> &rects, double bucket)
{
    m_rects = rects;
    m_bucket = bucket > 0 ? bucket : 1;
    m_bounds = QRectF();
    for (const QRectF &r : rects)
        m_bounds = m_bounds.isNull() ? r : m_bounds.united(r);
    m_columns = m_rects.empty() ? 0 : std::max(1, int(std::ceil(m_bounds.width() / m_bucket)));
    m_rows = m_rects.empty() ? 0 : std::max(1, int(std::ceil(m_bounds.height() / m_bucket)));
    // Two passes (count, then fill): one flat array, no per-bucket allocation.
    m_start.assign(std::size_t(m_columns) * std::size_t(m_rows) + 1, 0);
    for (const QRectF &r : m_rects) {
        const Span s = spanOf(r);
        for (int y = s.y0; y <= s.y1; ++y)
            for (int x = s.x0; x <= s.x1; ++x)
                ++m_start[std::size_t(y * m_columns + x) + 1];
    }
    for (std::size_t i = 1; i < m_start.size(); ++i)
        m_start[i] += m_start[i - 1];
    m_entries.assign(std::size_t(m_start.back()), 0);
    std::vector<int> fill(m_start.begin(), m_start.end() - 1);
    for (int i = 0; i < int(m_rects.size()); ++i) {
        const Span s = spanOf(m_rects[std::size_t(i)]);
        for (int y = s.y0; y <= s.y1; ++y)
            for (int x = s.x0; x <= s.x1; ++x)
                m_entries[std::size_t(fill[std::size_t(y * m_columns + x)]++)] = i;
    }
}

SpatialIndex::Span SpatialIndex::spanOf(const QRectF &area) const
{
    auto column
        = [this](double x) { return std::clamp(int(std::floor((x - m_bounds.left()) / m_bucket)), 0, m_columns - 1); };
    auto row = [this](double y) { return std::clamp(int(std::floor((y - m_bounds.top()) / m_bucket)), 0, m_rows - 1); };
    return { column(area.left()), row(area.top()), column(area.right()), row(area.bottom()) };
}

int SpatialIndex::at(const QPointF &point) const
{
    if (m_rects.empty() || !m_bounds.contains(point))
        return -1;
    const Span s = spanOf(QRectF(point, QSizeF(0, 0)));
    const std::size_t bucket = std::size_t(s.y0 * m_columns + s.x0);
    int best = -1;
    for (int e = m_start[bucket]; e < m_start[bucket + 1]; ++e) {
        const int i = m_entries[std::size_t(e)];
        if (m_rects[std::size_t(i)].contains(point) && (best < 0 || i < best))
            best = i;
    }
    return best;
}

std::vector<int> SpatialIndex::intersecting(const QRectF &area) const
{
    std::vector<int> result;
    const QRectF a = area.normalized();
    if (m_rects.empty() || !a.intersects(m_bounds.adjusted(-0.5, -0.5, 0.5, 0.5)))
        return result;
    const Span s = spanOf(a);
    for (int y = s.y0; y <= s.y1; ++y) {
        for (int x = s.x0; x <= s.x1; ++x) {
            const std::size_t bucket = std::size_t(y * m_columns + x);
            for (int e = m_start[bucket]; e < m_start[bucket + 1]; ++e) {
                const int i = m_entries[std::size_t(e)];
                if (m_rects[std::size_t(i)].intersects(a))
                    result.push_back(i);
            }
        }
    }
    // A rectangle spanning several buckets is listed in each of them.
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

} // namespace pd
