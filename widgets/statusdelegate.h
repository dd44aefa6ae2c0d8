// SPDX-License-Identifier: MIT
#pragma once

#include "celldelegate.h"

namespace pd {

// Paints an engine's state as its glyph in the state's colour plus its word (the word is the cue that
// does not depend on colour vision), from EngineStateRole; without a derived state, the last poll's
// status as a marker (circle serving, square failing), from PollStatusRole and HealthyRole.
class StatusDelegate final : public CellDelegate {
    Q_OBJECT
public:
    explicit StatusDelegate(QObject *parent);

protected:
    void paintCell(QPainter *painter, const QStyleOptionViewItem &opt, const QString &text,
        const QModelIndex &index) const override;
};

} // namespace pd
