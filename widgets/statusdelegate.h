// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace pd {

// Paints an engine's poll status as a coloured marker plus its word (the word is the cue that does
// not depend on colour vision), from PollStatusRole and HealthyRole.
class StatusDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    static QColor statusColor(int pollStatus, bool healthy);
};

} // namespace pd
