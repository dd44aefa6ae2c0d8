// SPDX-License-Identifier: MIT
#include "actioncatalog.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

namespace pd {

namespace {

const QString kSeparator = QStringLiteral(" ▸ ");

void walk(const QMenu *menu, const QString &prefix, QList<CatalogEntry> *out)
{
    QString section;
    const QList<QAction *> actions = menu->actions();
    for (QAction *action : actions) {
        if (action->isSeparator()) {
            section = plainActionText(action->text()); // a section title, or empty for a plain separator
            continue;
        }
        if (!action->isVisible())
            continue;
        const QString text = plainActionText(action->text());
        if (QMenu *sub = action->menu()) {
            walk(sub, prefix + text + kSeparator, out);
            continue;
        }
        if (text.isEmpty())
            continue;
        out->append({ action, prefix + (section.isEmpty() ? QString() : section + kSeparator) + text });
    }
}

} // namespace

QKeySequence CatalogEntry::shortcut() const
{
    return action ? action->shortcut() : QKeySequence();
}

QString plainActionText(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('&')) {
            if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('&')) {
                out.append(QLatin1Char('&'));
                ++i;
            }
            continue;
        }
        out.append(text.at(i));
    }
    return out;
}

QList<CatalogEntry> actionCatalog(const QMenu *menu, const QString &prefix)
{
    QList<CatalogEntry> out;
    walk(menu, prefix, &out);
    return out;
}

QList<CatalogEntry> actionCatalog(const QMenuBar *menuBar)
{
    QList<CatalogEntry> out;
    const QList<QAction *> top = menuBar->actions();
    for (QAction *action : top) {
        if (QMenu *menu = action->menu(); menu && action->isVisible())
            walk(menu, plainActionText(action->text()) + kSeparator, &out);
    }
    return out;
}

void showShortcutsInToolTips(QMenuBar *menuBar)
{
    for (const CatalogEntry &entry : actionCatalog(menuBar)) {
        const QKeySequence key = entry.shortcut();
        if (key.isEmpty())
            continue;
        entry.action->setToolTip(QStringLiteral("%1 (%2)").arg(
            plainActionText(entry.action->text()), key.toString(QKeySequence::NativeText)));
    }
    const QList<QMenu *> menus = menuBar->findChildren<QMenu *>();
    for (QMenu *menu : menus)
        menu->setToolTipsVisible(true);
}

} // namespace pd
