// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

// j and k as the ↓ and ↑ keys for a view (the engines table, the topology): installed as an event
// filter, it turns a plain J or K press into the arrow press the view already handles, so moving
// through engines works the same with either. Shift+J/K become Shift+arrows (extending a selection).
namespace pd {

class JkNavigation final : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    static void install(QObject *view); // the filter is a child of the view

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace pd
