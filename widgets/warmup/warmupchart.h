// SPDX-License-Identifier: MIT
#pragma once

#include "ops/warmuptypes.h"

#include <QList>
#include <QWidget>

// Latency per request of a warm-up, painted with QPainter (a few hundred bars, no chart library):
// one bar per request in the order they were sent, its height the end-to-end time, the part up to the
// first token darker. A failed request is a full-height red bar with a cross (a cue besides colour),
// a cancelled one grey. Repaints at most once per event-loop pass however many samples arrive.
namespace pd {

class WarmUpChart final : public QWidget {
    Q_OBJECT
public:
    explicit WarmUpChart(QWidget *parent = nullptr);

    void clear(int expected);
    void addSample(const WarmUpSample &sample);
    const QList<WarmUpSample> &samples() const { return m_samples; }

    QSize sizeHint() const override { return { 520, 180 }; }
    QSize minimumSizeHint() const override { return { 240, 120 }; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<WarmUpSample> m_samples;
    int m_expected = 0;
    double m_maxMs = 0;
};

} // namespace pd
