// SPDX-License-Identifier: MIT
#pragma once

#include "actioncatalog.h"

#include <QDialog>

class QTableWidget;

// Help ▸ Keyboard Shortcuts: every command of the menus that has a shortcut, generated from the
// actions themselves (so it never drifts from them), followed by the keys the views handle on their
// own (moving through engines, selecting, zooming).
namespace pd {

class ShortcutsDialog final : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QList<CatalogEntry> &entries, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    // The view keys listed after the commands: {keys, what they do}, translated.
    static QList<QPair<QString, QString>> viewKeys();
    // The rows of the table as "keys<TAB>command", the commands first (docs/keyboard-and-settings.md).
    static QStringList rows(const QList<CatalogEntry> &entries);

private:
    QTableWidget *m_table;
};

} // namespace pd
