// SPDX-License-Identifier: MIT
#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pd {

ShortcutsDialog::ShortcutsDialog(const QList<CatalogEntry> &entries, QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget(this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({ tr("Keys"), tr("Command") });
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const QStringList lines = rows(entries);
    m_table->setRowCount(int(lines.size()));
    for (int r = 0; r < lines.size(); ++r) {
        const QStringList cells = lines.at(r).split(QLatin1Char('\t'));
        m_table->setItem(r, 0, new QTableWidgetItem(cells.value(0)));
        m_table->setItem(r, 1, new QTableWidgetItem(cells.value(1)));
    }
    m_table->resizeColumnToContents(0);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Every command is also in the command palette (%1).")
                                     .arg(QKeySequence(Qt::CTRL | Qt::Key_K).toString(QKeySequence::NativeText)),
        this));
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(620, 560);
}

QList<QPair<QString, QString>> ShortcutsDialog::viewKeys()
{
    return {
        { tr("J / K, ↓ / ↑"), tr("Engines table and topology: next / previous engine") },
        { tr("← / →"), tr("Topology: engine to the left / right") },
        { tr("Shift+arrows"), tr("Topology: extend the selection") },
        { tr("Enter"), tr("Open the highlighted engine (detail and charts)") },
        { tr("Space"), tr("Topology: add or remove the engine from the selection") },
        { tr("Ctrl+A"), tr("Topology: select every engine") },
        { tr("Esc"), tr("Topology: clear the selection; palette and dialogs: close") },
        { tr("+ / − / 0"), tr("Topology: zoom in / out / fit") },
    };
}

QStringList ShortcutsDialog::rows(const QList<CatalogEntry> &entries)
{
    QStringList out;
    for (const CatalogEntry &entry : entries) {
        const QKeySequence key = entry.shortcut();
        if (key.isEmpty())
            continue;
        out.append(key.toString(QKeySequence::NativeText) + QLatin1Char('\t') + entry.path);
    }
    const auto keys = viewKeys();
    for (const auto &[keysText, what] : keys)
        out.append(keysText + QLatin1Char('\t') + what);
    return out;
}

} // namespace pd
