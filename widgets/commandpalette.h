// SPDX-License-Identifier: MIT
#pragma once

#include "actioncatalog.h"

#include <QDialog>

class QLineEdit;
class QTreeWidget;

// The command palette (Ctrl+K): every command of the window's menus, and the engine actions of the
// selection, with their shortcuts, filtered as the operator types (fuzzy: the letters in order, word
// starts and runs ranked first). Enter runs the highlighted command and closes; Esc closes. The
// palette is non-modal and deletes itself when closed; it runs the action after hiding itself.
namespace pd {

class CommandPalette final : public QDialog {
    Q_OBJECT
public:
    explicit CommandPalette(QWidget *parent = nullptr);

    void addEntries(const QList<CatalogEntry> &entries);
    QLineEdit *filterEdit() const { return m_filter; }
    QTreeWidget *list() const { return m_list; }
    QStringList visiblePaths() const; // in the order shown
    // Runs the highlighted command (what Enter does); false when nothing runnable is highlighted.
    bool runCurrent();

    // How well `pattern` matches `text` as a subsequence, case-insensitively: -1 when it does not;
    // higher for matches at word starts and in runs, and for shorter texts. An empty pattern scores 0.
    static int fuzzyScore(const QString &pattern, const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refilter();

    QLineEdit *m_filter;
    QTreeWidget *m_list;
    QList<CatalogEntry> m_entries;
};

} // namespace pd
