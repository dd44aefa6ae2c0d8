// SPDX-License-Identifier: MIT
#include "warmup/warmupchart.h"

#include "ops/warmupreport.h"

#include <QPainter>

namespace pd {

namespace {

const QColor kE2e(0x90, 0xca, 0xf9);
const QColor kTtft(0x15, 0x65, 0xc0);
const QColor kFailed(0xc6, 0x28, 0x28);
const QColor kCancelled(0x9e, 0x9e, 0x9e);

} // namespace

WarmUpChart::WarmUpChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("warmUpChart"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void WarmUpChart::clear(int expected)
{
    m_samples.clear();
    m_expected = expected;
    m_maxMs = 0;
    update();
}

void WarmUpChart::addSample(const WarmUpSample &sample)
{
    m_samples.append(sample);
    if (std::isfinite(sample.e2eMs))
        m_maxMs = std::max(m_maxMs, sample.e2eMs);
    update(); // coalesced by Qt into one paint
}

void WarmUpChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const int legendHeight = fm.height() + 6;
    const int axisWidth = fm.horizontalAdvance(QStringLiteral("00000 ms")) + 6;
    const QRect plot = rect().adjusted(axisWidth, 6, -6, -legendHeight - 4);
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    p.setPen(palette().color(QPalette::Text));
    const double top = m_maxMs > 0 ? m_maxMs : 1.0;
    p.drawText(QRect(0, plot.top() - fm.height() / 2, axisWidth - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
        tr("%1 ms").arg(formatMs(top)));
    p.drawText(QRect(0, plot.bottom() - fm.height() / 2, axisWidth - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
        QStringLiteral("0"));

    const int slots = std::max<int>(std::max(m_expected, int(m_samples.size())), 1);
    const double slotWidth = double(plot.width()) / slots;
    const double barWidth = std::max(1.0, slotWidth * 0.8);
    for (const WarmUpSample &s : std::as_const(m_samples)) {
        const double x = plot.left() + s.index * slotWidth + (slotWidth - barWidth) / 2;
        if (s.outcome != WarmUpOutcome::Ok) {
            const QRectF bar(x, plot.top(), barWidth, plot.height());
            const QColor c = s.outcome == WarmUpOutcome::Cancelled ? kCancelled : kFailed;
            p.fillRect(bar, QColor(c.red(), c.green(), c.blue(), 90));
            if (barWidth >= 5) {
                p.setPen(QPen(c, 1.5));
                const double w = std::min(barWidth, 10.0) / 2;
                const QPointF m(bar.center().x(), plot.top() + w + 2);
                p.drawLine(m + QPointF(-w, -w), m + QPointF(w, w));
                p.drawLine(m + QPointF(-w, w), m + QPointF(w, -w));
            }
            continue;
        }
        const double e2e = std::isfinite(s.e2eMs) ? s.e2eMs : 0;
        const double ttft = std::isfinite(s.ttftMs) ? std::min(s.ttftMs, e2e) : 0;
        const double h = plot.height() * e2e / top;
        const double hf = plot.height() * ttft / top;
        p.fillRect(QRectF(x, plot.bottom() - h, barWidth, h), kE2e);
        p.fillRect(QRectF(x, plot.bottom() - hf, barWidth, hf), kTtft);
    }

    // Legend.
    int lx = plot.left();
    const int ly = rect().bottom() - legendHeight + 4;
    const auto legend = [&](const QColor &c, const QString &text) {
        p.fillRect(QRect(lx, ly + 2, 10, fm.height() - 4), c);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(lx + 14, ly + fm.ascent(), text);
        lx += 14 + fm.horizontalAdvance(text) + 14;
    };
    legend(kTtft, tr("time to first token"));
    legend(kE2e, tr("end to end"));
    legend(kFailed, tr("failed (\u00d7)"));
}

} // namespace pd
