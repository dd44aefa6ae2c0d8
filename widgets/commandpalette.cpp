// SPDX-License-Identifier: MIT
#include "commandpalette.h"

#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace pd {

namespace {

constexpr int kEntryRole = Qt::UserRole + 1;

bool isWordStart(const QString &text, qsizetype i)
{
    if (i == 0)
        return true;
    const QChar before = text.at(i - 1);
    return !before.isLetterOrNumber() || (text.at(i).isUpper() && before.isLower());
}

} // namespace

CommandPalette::CommandPalette(QWidget *parent)
    : QDialog(parent, Qt::Popup | Qt::FramelessWindowHint)
    , m_filter(new QLineEdit(this))
    , m_list(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Command Palette"));
    m_filter->setObjectName(QStringLiteral("commandPaletteFilter"));
    m_filter->setPlaceholderText(tr("Type a command…"));
    m_filter->installEventFilter(this);
    m_list->setObjectName(QStringLiteral("commandPaletteList"));
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({ tr("Command"), tr("Shortcut") });
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->setFocusPolicy(Qt::NoFocus); // typing stays in the filter; arrows move the list from there
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_filter);
    layout->addWidget(m_list);
    connect(m_filter, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    m_filter->setFocus();
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { runCurrent(); });
    resize(560, 380);
}

void CommandPalette::addEntries(const QList<CatalogEntry> &entries)
{
    m_entries.append(entries);
    refilter();
}

QStringList CommandPalette::visiblePaths() const
{
    QStringList paths;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        paths.append(m_list->topLevelItem(i)->text(0));
    return paths;
}

bool CommandPalette::runCurrent()
{
    QTreeWidgetItem *item = m_list->currentItem();
    if (!item)
        return false;
    const int index = item->data(0, kEntryRole).toInt();
    QPointer<QAction> action = m_entries.value(index).action;
    if (!action || !action->isEnabled())
        return false;
    hide();
    action->trigger(); // may open a dialog or delete this palette's engine menu: the palette goes last
    close();
    return true;
}

int CommandPalette::fuzzyScore(const QString &pattern, const QString &text)
{
    if (pattern.isEmpty())
        return 0;
    int score = 0;
    qsizetype t = 0;
    qsizetype previous = -2;
    for (const QChar p : pattern) {
        if (p.isSpace())
            continue;
        const QChar want = p.toCaseFolded();
        while (t < text.size() && text.at(t).toCaseFolded() != want)
            ++t;
        if (t == text.size())
            return -1;
        score += 1;
        if (isWordStart(text, t))
            score += 8;
        if (t == previous + 1)
            score += 5;
        previous = t;
        ++t;
    }
    return score * 100 - int(std::min<qsizetype>(text.size(), 99));
}

void CommandPalette::refilter()
{
    const QString pattern = m_filter->text().trimmed();
    struct Hit {
        int score;
        int index;
    };
    QList<Hit> hits;
    for (int i = 0; i < m_entries.size(); ++i) {
        if (!m_entries.at(i).action)
            continue;
        const int score = fuzzyScore(pattern, m_entries.at(i).path);
        if (score >= 0)
            hits.append({ score, i });
    }
    if (!pattern.isEmpty())
        std::stable_sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) { return a.score > b.score; });
    m_list->clear();
    QTreeWidgetItem *first = nullptr;
    for (const Hit &hit : std::as_const(hits)) {
        const CatalogEntry &entry = m_entries.at(hit.index);
        QString path = entry.path;
        if (entry.action->isCheckable())
            path += entry.action->isChecked() ? tr(" (on)") : tr(" (off)");
        auto *item = new QTreeWidgetItem(m_list, { path, entry.shortcut().toString(QKeySequence::NativeText) });
        item->setData(0, kEntryRole, hit.index);
        if (!entry.action->isEnabled())
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        else if (!first)
            first = item;
    }
    m_list->setCurrentItem(first);
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            QCoreApplication::sendEvent(m_list, event);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            runCurrent();
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace pd
