// SPDX-License-Identifier: MIT
#pragma once

#include <QKeySequence>
#include <QList>
#include <QPointer>
#include <QString>

class QAction;
class QMenu;
class QMenuBar;

// Every command of a menu bar (or a menu), walked through its submenus, as the command palette, the
// keyboard shortcuts dialog and the shortcut tooltips see them: the action and where it lives
// ("View ▸ Problems"). Separators and submenu entries are left out; a menu's sections name the group.
namespace pd {

struct CatalogEntry {
    QPointer<QAction> action;
    QString path; // "File ▸ Open Profile…", mnemonics removed
    QKeySequence shortcut() const;
};

QString plainActionText(const QString &text); // "&Open Profile…" -> "Open Profile…" ("&&" -> "&")
QList<CatalogEntry> actionCatalog(const QMenuBar *menuBar);
QList<CatalogEntry> actionCatalog(const QMenu *menu, const QString &prefix);
// Gives every catalogued action with a shortcut a tooltip that carries it ("Open Profile… (Ctrl+O)")
// and makes the menus show tooltips. Idempotent: call again after adding actions.
void showShortcutsInToolTips(QMenuBar *menuBar);

} // namespace pd
