// SPDX-License-Identifier: MIT
#include "firstpaintprobe.h"

#include "topologyview/topologyview.h"

#include <QApplication>
#include <QEvent>
#include <QTextStream>
#include <QTimer>

FirstPaintProbe::FirstPaintProbe(QElapsedTimer sinceMain)
    : QObject(qApp)
    , m_sinceMain(sinceMain)
{
}

void FirstPaintProbe::installIfAsked(QElapsedTimer sinceMain)
{
    if (qEnvironmentVariableIsEmpty("PDCONSOLE_BENCH_FIRST_PAINT"))
        return;
    qApp->installEventFilter(new FirstPaintProbe(sinceMain));
}

bool FirstPaintProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_seen && event->type() == QEvent::Paint && qobject_cast<pd::TopologyView *>(watched)) {
        m_seen = true;
        // Queued: the paint event this filter sees is delivered and painted before the line is printed.
        QTimer::singleShot(0, this, [this] {
            QTextStream(stdout) << "pdconsole: first paint " << m_sinceMain.elapsed() << " ms after main" << Qt::endl;
            QApplication::quit();
        });
    }
    return false;
}
