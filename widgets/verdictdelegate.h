// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checktypes.h"

#include <QStyledItemDelegate>

// Paints a node-check grid cell: the verdict as a colour and as a glyph (✓ ! ✗ ?), so the grid reads
// without colour too, and the names of the checks that are not pass under it.
namespace pd {

class VerdictDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static QColor verdictColor(int verdict); // -1: pending / no device
    static QString verdictGlyph(int verdict);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace pd
