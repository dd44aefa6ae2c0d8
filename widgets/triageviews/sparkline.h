// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QPointF>
#include <QWidget>

#include <functional>

// A small line chart painted with QPainter: a title, the latest value, and the points (x: ms since
// the epoch, y NaN = a gap) over a fixed time window. No axes: a glance, not a measurement.
namespace pd {

class Sparkline final : public QWidget {
    Q_OBJECT
public:
    explicit Sparkline(const QString &title, QWidget *parent = nullptr);

    // points from SeriesStore::seriesView; window [fromMs, toMs]; format of the latest value.
    void setData(const QList<QPointF> &points, qint64 fromMs, qint64 toMs);
    void setValueFormat(std::function<QString(double)> format) { m_format = std::move(format); }
    void setColor(const QColor &color)
    {
        m_color = color;
        update();
    }
    QString latestText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_title;
    QList<QPointF> m_points;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    QColor m_color { 0x1e, 0x88, 0xe5 };
    std::function<QString(double)> m_format;
};

} // namespace pd
