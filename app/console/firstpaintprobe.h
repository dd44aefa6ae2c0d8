// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>

// The start-up benchmark's hook (bench/bench_startup): with PDCONSOLE_BENCH_FIRST_PAINT set in the
// environment, the console prints one line "pdconsole: first paint <ms> ms after main" once the
// topology view has finished painting its first frame (the profile's engines drawn), then quits.
// Without the variable nothing is installed.
class FirstPaintProbe final : public QObject {
    Q_OBJECT
public:
    static void installIfAsked(QElapsedTimer sinceMain);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit FirstPaintProbe(QElapsedTimer sinceMain);

    QElapsedTimer m_sinceMain;
    bool m_seen = false;
};
