// SPDX-License-Identifier: MIT
#pragma once

#include "celldelegate.h"

namespace pd {

// Paints a row's pool (prefill / decode) as a coloured tag with its name, from PoolRole.
class PoolDelegate final : public CellDelegate {
    Q_OBJECT
public:
    explicit PoolDelegate(QObject *parent);

protected:
    void paintCell(QPainter *painter, const QStyleOptionViewItem &cell, const QString &text,
        const QModelIndex &index) const override;
};

} // namespace pd
