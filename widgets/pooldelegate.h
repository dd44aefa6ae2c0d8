// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace pd {

// Paints a row's pool (prefill / decode) as a coloured tag with its name, from PoolRole.
class PoolDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    static QColor poolColor(int pool);
};

} // namespace pd
