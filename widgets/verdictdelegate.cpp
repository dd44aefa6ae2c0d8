// SPDX-License-Identifier: MIT
#include "verdictdelegate.h"

#include "apptheme.h"
#include "models/nodecheckgridmodel.h"
#include "stateappearance.h"

#include <QPainter>

namespace pd {

QColor VerdictDelegate::verdictColor(int verdict)
{
    switch (verdict) {
    case int(Verdict::Pass):
        return toneInk(Tone::Good);
    case int(Verdict::Warning):
        return toneInk(Tone::Caution);
    case int(Verdict::Fail):
        return toneInk(Tone::Bad);
    case int(Verdict::Unknown):
        return toneInk(Tone::Muted);
    default:
        return toneInk(Tone::Absent);
    }
}

QString VerdictDelegate::verdictGlyph(int verdict)
{
    switch (verdict) {
    case int(Verdict::Pass):
        return QStringLiteral("\u2713"); // ✓
    case int(Verdict::Warning):
        return QStringLiteral("!");
    case int(Verdict::Fail):
        return QStringLiteral("\u2717"); // ✗
    case int(Verdict::Unknown):
        return QStringLiteral("?");
    default:
        return QString();
    }
}

QSize VerdictDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (index.column() == 0)
        return QStyledItemDelegate::sizeHint(option, index) + QSize(44, 0);
    return { qMax(46, option.fontMetrics.horizontalAdvance(index.data().toString()) / 2 + 12),
        option.fontMetrics.height() * 2 + 10 };
}

void VerdictDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QVariant v = index.data(NodeCheckGridModel::VerdictRole);
    const int verdict = v.isValid() ? v.toInt() : -1;
    const bool pending = index.data(NodeCheckGridModel::PendingRole).toBool();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect r = option.rect.adjusted(1, 1, -1, -1);
    const bool selected = option.state & QStyle::State_Selected;
    if (index.column() == 0) {
        // Node column: a verdict bar on the left, the name, and the node-level verdict glyph.
        painter->fillRect(option.rect, selected ? option.palette.highlight() : option.palette.base());
        painter->fillRect(QRect(r.left(), r.top(), 6, r.height()), verdictColor(pending ? -1 : verdict));
        painter->setPen(selected ? option.palette.highlightedText().color() : option.palette.text().color());
        const QString glyph = pending ? QStringLiteral("\u2026") : verdictGlyph(verdict);
        painter->drawText(r.adjusted(12, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
            glyph + QStringLiteral("  ") + index.data().toString());
        painter->restore();
        return;
    }
    if (verdict < 0 && !pending) { // no such device on this node (A2 row in an A3-wide grid)
        painter->fillRect(r, option.palette.window());
        painter->restore();
        return;
    }
    const QColor c = verdictColor(verdict);
    painter->setPen(Qt::NoPen);
    // Passed and still running read calm (a wash); a warning, a failure or an unknown verdict is solid.
    const bool dark = isDarkTheme();
    painter->setBrush(verdict == int(Verdict::Pass) ? toneWash(Tone::Good, dark)
            : verdict < 0                           ? toneWash(Tone::Muted, dark)
                                                    : c);
    painter->drawRoundedRect(r, 3, 3);
    if (selected) {
        painter->setPen(QPen(option.palette.highlight().color(), 2));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 3, 3);
    }
    const QColor ink
        = verdict == int(Verdict::Pass) ? c : (verdict < 0 ? toneInk(Tone::Muted, dark) : QColor(Qt::white));
    painter->setPen(ink);
    QFont big = option.font;
    big.setBold(true);
    big.setPointSizeF(option.font.pointSizeF() * 1.15);
    painter->setFont(big);
    const QString glyph = pending && verdict < 0 ? QStringLiteral("\u2026") : verdictGlyph(verdict);
    const QString names = index.data().toString();
    if (names.isEmpty()) {
        painter->drawText(r, Qt::AlignCenter, glyph);
    } else {
        painter->drawText(r.adjusted(0, 2, 0, -r.height() / 2), Qt::AlignHCenter | Qt::AlignBottom, glyph);
        QFont small = option.font;
        small.setPointSizeF(option.font.pointSizeF() * 0.8);
        painter->setFont(small);
        const QString elided = QFontMetrics(small).elidedText(names, Qt::ElideRight, r.width() - 4);
        painter->drawText(r.adjusted(2, r.height() / 2, -2, -2), Qt::AlignHCenter | Qt::AlignTop, elided);
    }
    painter->restore();
}

} // namespace pd
