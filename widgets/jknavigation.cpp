// SPDX-License-Identifier: MIT
#include "jknavigation.h"

#include <QCoreApplication>
#include <QKeyEvent>

namespace pd {

void JkNavigation::install(QObject *view)
{
    view->installEventFilter(new JkNavigation(view));
}

bool JkNavigation::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::KeyRelease)
        return QObject::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    const Qt::KeyboardModifiers mods = key->modifiers() & ~Qt::KeypadModifier;
    if ((key->key() != Qt::Key_J && key->key() != Qt::Key_K) || (mods & ~Qt::ShiftModifier))
        return QObject::eventFilter(watched, event);
    QKeyEvent arrow(key->type(), key->key() == Qt::Key_J ? Qt::Key_Down : Qt::Key_Up, mods, QString(),
        key->isAutoRepeat(), ushort(key->count()));
    QCoreApplication::sendEvent(watched, &arrow); // the filter is not re-entered: arrows pass through
    return true;
}

} // namespace pd
