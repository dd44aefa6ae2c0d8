// SPDX-License-Identifier: MIT
#pragma once

#include <QPointF>
#include <QRectF>

#include <vector>

// A uniform grid over a set of rectangles (the engine cells of a topology layout): which rectangles
// contain a point, which intersect a rectangle. Built once per layout; a query touches only the
// buckets it overlaps, so hit tests and partial repaints stay O(cells in view) at 5,000 cells.
namespace pd {

class SpatialIndex {
public:
    SpatialIndex() = default;
    // bucket: the grid pitch in the rectangles' units (a few cells wide works best).
    void build(const std::vector<QRectF> &rects, double bucket);

    // The first rectangle (lowest index) that contains point, or -1.
    int at(const QPointF &point) const;
    // Every rectangle that intersects area, each once, in ascending index order.
    std::vector<int> intersecting(const QRectF &area) const;
    int size() const { return int(m_rects.size()); }

private:
    struct Span {
        int x0, y0, x1, y1;
    };
    Span spanOf(const QRectF &area) const;

    std::vector<QRectF> m_rects;
    QRectF m_bounds;
    double m_bucket = 1;
    int m_columns = 0;
    int m_rows = 0;
    std::vector<int> m_start; // m_columns * m_rows + 1 offsets into m_entries
    std::vector<int> m_entries; // rectangle indices, bucket by bucket
};

} // namespace pd
