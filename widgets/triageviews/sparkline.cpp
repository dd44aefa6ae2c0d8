// SPDX-License-Identifier: MIT
#include "triageviews/sparkline.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace pd {

Sparkline::Sparkline(const QString &title, QWidget *parent)
    : QWidget(parent)
    , m_title(title)
    , m_format([](double v) { return QString::number(v, 'f', v < 10 ? 1 : 0); })
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void Sparkline::setData(const QList<QPointF> &points, qint64 fromMs, qint64 toMs)
{
    m_points = points;
    m_fromMs = fromMs;
    m_toMs = toMs;
    update();
}

QString Sparkline::latestText() const
{
    for (auto it = m_points.rbegin(); it != m_points.rend(); ++it) {
        if (!std::isnan(it->y()))
            return m_format(it->y());
    }
    return QStringLiteral("–");
}

QSize Sparkline::sizeHint() const
{
    return { 240, fontMetrics().height() * 2 + 34 };
}

QSize Sparkline::minimumSizeHint() const
{
    return { 120, fontMetrics().height() * 2 + 24 };
}

void Sparkline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const QRect header(0, 0, width(), fm.height());
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(header, Qt::AlignLeft | Qt::AlignVCenter, m_title);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(header, Qt::AlignRight | Qt::AlignVCenter, latestText());
    p.setFont(font());

    const QRectF plot = QRectF(rect()).adjusted(1, fm.height() + 4, -1, -1);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(palette().color(QPalette::Base));
    p.drawRect(plot);
    if (m_toMs <= m_fromMs)
        return;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const QPointF &pt : std::as_const(m_points)) {
        if (!std::isnan(pt.y())) {
            lo = std::min(lo, pt.y());
            hi = std::max(hi, pt.y());
        }
    }
    if (!std::isfinite(lo)) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, tr("no data"));
        return;
    }
    lo = std::min(lo, 0.0);
    if (hi - lo < 1e-9)
        hi = lo + 1;
    const QRectF area = plot.adjusted(2, 3, -2, -3);
    auto map = [&](const QPointF &pt) {
        const double x = area.left() + area.width() * double(pt.x() - double(m_fromMs)) / double(m_toMs - m_fromMs);
        const double y = area.bottom() - area.height() * (pt.y() - lo) / (hi - lo);
        return QPointF(x, y);
    };
    QPainterPath line;
    bool open = false;
    for (const QPointF &pt : std::as_const(m_points)) {
        if (std::isnan(pt.y()) || pt.x() < double(m_fromMs)) {
            open = false;
            continue;
        }
        if (!open)
            line.moveTo(map(pt));
        else
            line.lineTo(map(pt));
        open = true;
    }
    p.setPen(QPen(m_color, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawPath(line);
}

} // namespace pd
