// SPDX-License-Identifier: MIT
#include "triageviews/timelineview.h"

#include "models/eventmodel.h"
#include "models/modelroles.h"
#include "state/statetracker.h"
#include "apptheme.h"
#include "stateappearance.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <map>

namespace pd {

// The painted part: lanes and markers for the filter's rows inside the time window.
class TimelineCanvas final : public QWidget {
public:
    TimelineCanvas(StateTracker *tracker, EventFilterModel *filter, QWidget *parent)
        : QWidget(parent)
        , m_tracker(tracker)
        , m_filter(filter)
    {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    int windowMs = 30 * 60 * 1000;
    std::function<void(int)> onEngineClicked;

    struct Lane {
        QString label;
        int engine = -1;
        QList<int> rows; // filter rows
    };
    QList<Lane> lanes;

    void rebuild()
    {
        lanes.clear();
        std::map<QString, int> byKey; // stable order: by where
        for (int r = 0; r < m_filter->rowCount(); ++r) {
            const QModelIndex i = m_filter->index(r, EventModel::WhereColumn);
            const QString where = i.data().toString();
            auto it = byKey.find(where);
            if (it == byKey.end()) {
                it = byKey.emplace(where, int(lanes.size())).first;
                lanes.append(Lane { where, i.data(EngineIndexRole).toInt(), {} });
            }
            lanes[it->second].rows.append(r);
        }
        std::sort(lanes.begin(), lanes.end(), [](const Lane &a, const Lane &b) {
            return a.engine != b.engine && (a.engine < 0 || b.engine < 0) ? a.engine < b.engine : a.label < b.label;
        });
        setMinimumHeight(kAxis + int(lanes.size()) * laneHeight() + 4);
        update();
    }

    int laneHeight() const { return fontMetrics().height() + 8; }
    int labelWidth() const
    {
        return fontMetrics().horizontalAdvance(QStringLiteral("d1 · 127.0.0.7:9003 (DP 19)")) + 12;
    }

protected:
    static constexpr int kAxis = 22;
    static constexpr int kRightMargin = 36; // room for the last time label

    void timeRange(qint64 *from, qint64 *to) const
    {
        *to = m_tracker->nowMs();
        *from = *to - windowMs;
    }
    double xOf(qint64 t, qint64 from, qint64 to) const
    {
        const int left = labelWidth();
        return left + double(width() - left - kRightMargin) * double(t - from) / double(std::max<qint64>(1, to - from));
    }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().color(QPalette::Base));
        qint64 from = 0, to = 0;
        timeRange(&from, &to);
        const int left = labelWidth();
        // Axis: a tick every window/6, labelled HH:mm(:ss).
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(left, kAxis - 2, width() - kRightMargin, kAxis - 2);
        const qint64 step = std::max<qint64>(1000, windowMs / 6);
        const QString fmt = windowMs <= 10 * 60 * 1000 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm");
        for (qint64 t = to; t >= from; t -= step) {
            const double x = xOf(t, from, to);
            p.setPen(palette().color(QPalette::Midlight));
            p.drawLine(QPointF(x, kAxis), QPointF(x, height()));
            p.setPen(palette().color(QPalette::WindowText));
            const QString label = QDateTime::fromMSecsSinceEpoch(t).toLocalTime().toString(fmt);
            p.drawText(QRectF(x - 40, 0, 80, kAxis - 4), Qt::AlignCenter, label);
        }
        if (lanes.isEmpty()) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(rect().adjusted(0, kAxis, 0, 0), Qt::AlignCenter, TimelineView::tr("No events in the filter."));
            return;
        }
        p.setRenderHint(QPainter::Antialiasing);
        const int lh = laneHeight();
        for (int l = 0; l < lanes.size(); ++l) {
            const Lane &lane = lanes.at(l);
            const int y = kAxis + l * lh;
            if (l % 2)
                p.fillRect(QRect(0, y, width(), lh), palette().color(QPalette::AlternateBase));
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QRect(4, y, left - 8, lh), Qt::AlignVCenter | Qt::AlignLeft,
                fontMetrics().elidedText(lane.label, Qt::ElideMiddle, left - 8));
            // The state between events: a thin bar in the colour of the state entered.
            double lastX = -1;
            QColor lastColor;
            for (int r : lane.rows) {
                const QModelIndex i = m_filter->index(r, 0);
                const qint64 t = i.data(TimeRole).toLongLong();
                if (i.data(EventKindRole).toInt() != int(StateEvent::Kind::State))
                    continue;
                const double x = xOf(std::max(t, from), from, to);
                if (lastX >= 0)
                    p.fillRect(QRectF(lastX, y + lh / 2.0 - 2, x - lastX, 4), lastColor);
                lastX = x;
                lastColor = stateMark(EngineState(i.data(EngineStateRole).toInt()));
                lastColor.setAlpha(120);
            }
            if (lastX >= 0)
                p.fillRect(QRectF(lastX, y + lh / 2.0 - 2, xOf(to, from, to) - lastX, 4), lastColor);
            for (int row : lane.rows) {
                const QModelIndex i = m_filter->index(row, 0);
                const qint64 t = i.data(TimeRole).toLongLong();
                if (t < from)
                    continue;
                const QPointF c(xOf(t, from, to), y + lh / 2.0);
                const auto kind = StateEvent::Kind(i.data(EventKindRole).toInt());
                if (kind == StateEvent::Kind::State) {
                    const auto state = EngineState(i.data(EngineStateRole).toInt());
                    // The topology cell's look in small: the state's fill, its painted glyph in the ink.
                    const QColor fill = stateFill(state, isDark(palette()));
                    const double r = lh / 2.0 - 2;
                    p.setPen(QPen(palette().color(QPalette::Base), 1));
                    p.setBrush(fill);
                    p.drawEllipse(c, r, r);
                    drawStateGlyph(p, state, QRectF(c.x() - r * 0.62, c.y() - r * 0.62, r * 1.24, r * 1.24), inkOn(fill));
                } else {
                    const double s = lh / 2.0 - 3;
                    const QPointF poly[]
                        = { { c.x(), c.y() - s }, { c.x() + s, c.y() }, { c.x(), c.y() + s }, { c.x() - s, c.y() } };
                    p.setPen(QPen(palette().color(QPalette::WindowText), 1));
                    // The proxy's events in the state colours: down red, back (or recounted) green.
                    p.setBrush(kind == StateEvent::Kind::Proxy
                                   ? stateFill(EngineState(i.data(EngineStateRole).toInt()), isDark(palette()))
                                   : palette().color(QPalette::Highlight));
                    p.drawPolygon(poly, 4);
                }
            }
        }
    }

    // The event under a point: its filter row, or -1.
    int rowAt(const QPoint &pos) const
    {
        const int l = (pos.y() - kAxis) / laneHeight();
        if (pos.y() < kAxis || l < 0 || l >= lanes.size())
            return -1;
        qint64 from = 0, to = 0;
        timeRange(&from, &to);
        int best = -1;
        double bestDx = laneHeight() / 2.0 + 2;
        for (int r : lanes.at(l).rows) {
            const double dx = std::abs(xOf(m_filter->index(r, 0).data(TimeRole).toLongLong(), from, to) - pos.x());
            if (dx <= bestDx) {
                bestDx = dx;
                best = r;
            }
        }
        return best;
    }

    bool event(QEvent *e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(e);
            const int r = rowAt(help->pos());
            if (r < 0) {
                QToolTip::hideText();
                return true;
            }
            const QModelIndex i = m_filter->index(r, 0);
            QToolTip::showText(help->globalPos(),
                QStringLiteral("%1  %2 — %3\n%4")
                    .arg(i.data().toString(), m_filter->index(r, EventModel::WhereColumn).data().toString(),
                        m_filter->index(r, EventModel::WhatColumn).data().toString(),
                        i.data(Qt::ToolTipRole).toString()),
                this);
            return true;
        }
        return QWidget::event(e);
    }

    void mousePressEvent(QMouseEvent *e) override
    {
        const int l = (e->pos().y() - kAxis) / laneHeight();
        if (e->pos().y() >= kAxis && l >= 0 && l < lanes.size() && lanes.at(l).engine >= 0 && onEngineClicked)
            onEngineClicked(lanes.at(l).engine);
    }

private:
    StateTracker *m_tracker;
    EventFilterModel *m_filter;
};

TimelineView::TimelineView(StateTracker *tracker, QWidget *parent)
    : QWidget(parent)
    , m_tracker(tracker)
    , m_model(new EventModel(tracker, this))
    , m_filter(new EventFilterModel(this))
    , m_text(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_window(new QComboBox(this))
    , m_count(new QLabel(this))
{
    setObjectName(QStringLiteral("timelineView"));
    m_filter->setSourceModel(m_model);
    m_canvas = new TimelineCanvas(tracker, m_filter, this);
    m_canvas->onEngineClicked = [this](int engine) { Q_EMIT engineFocusRequested(engine); };

    m_text->setObjectName(QStringLiteral("timelineFilter"));
    m_text->setPlaceholderText(tr("Filter events (node, engine, words)…"));
    m_text->setClearButtonEnabled(true);
    connect(m_text, &QLineEdit::textChanged, m_filter, &EventFilterModel::setText);

    m_kind->addItem(tr("All kinds"), -1);
    for (int k = 0; k < StateEvent::kKindCount; ++k)
        m_kind->addItem(eventKindName(StateEvent::Kind(k)), k);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        const int only = m_kind->currentData().toInt();
        for (int k = 0; k < StateEvent::kKindCount; ++k)
            m_filter->setKindEnabled(StateEvent::Kind(k), only < 0 || only == k);
    });
    for (int minutes : { 5, 30, 120, 1440 })
        m_window->addItem(minutes < 60 ? tr("last %1 min").arg(minutes) : tr("last %1 h").arg(minutes / 60), minutes);
    m_window->setCurrentIndex(1);
    connect(
        m_window, &QComboBox::currentIndexChanged, this, [this] { setWindowMinutes(m_window->currentData().toInt()); });

    auto *exportButton = new QPushButton(tr("Export CSV…"), this);
    exportButton->setObjectName(QStringLiteral("timelineExport"));
    connect(exportButton, &QPushButton::clicked, this, &TimelineView::exportDialog);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_text, 1);
    bar->addWidget(m_kind);
    bar->addWidget(m_window);
    bar->addWidget(m_count);
    bar->addWidget(exportButton);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_canvas);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(bar);
    layout->addWidget(scroll, 1);

    auto update = [this] {
        m_canvas->rebuild();
        m_count->setText(m_filter->rowCount() == 1 ? tr("1 event") : tr("%1 events").arg(m_filter->rowCount()));
    };
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, update);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, update);
    connect(m_filter, &QAbstractItemModel::modelReset, this, update);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, update);
    connect(tracker, &StateTracker::roundDerived, m_canvas, qOverload<>(&QWidget::update));
    update();
}

void TimelineView::setWindowMinutes(int minutes)
{
    m_canvas->windowMs = std::max(1, minutes) * 60 * 1000;
    m_canvas->update();
}

int TimelineView::laneCount() const
{
    return int(m_canvas->lanes.size());
}

bool TimelineView::exportCsv(const QString &path, QString *error) const
{
    auto csv = [](QString s) {
        if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')))
            s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
        return s;
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    QByteArray out = "time,kind,where,engine,node,from,to,what,reason,evidence\n";
    for (int r = 0; r < m_filter->rowCount(); ++r) {
        const StateEvent &e = m_model->event(m_filter->mapToSource(m_filter->index(r, 0)).row());
        const bool state = e.kind == StateEvent::Kind::State;
        const QStringList fields { QDateTime::fromMSecsSinceEpoch(e.atMs, Qt::UTC).toString(Qt::ISODateWithMs),
            eventKindName(e.kind), csv(e.where), e.engine >= 0 ? QString::number(e.engine) : QString(),
            e.node >= 0 ? QString::number(e.node) : QString(), state ? engineStateName(e.from) : QString(),
            state ? engineStateName(e.to) : QString(), csv(e.what), csv(e.reason),
            csv(e.evidence.join(QStringLiteral("; "))) };
        out += fields.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    file.write(out);
    if (!file.commit()) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void TimelineView::exportDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Events"), QStringLiteral("events.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export Events"), error);
}

} // namespace pd
