// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QLocale>
#include <QString>
#include <QTimeZone>

// The tick arithmetic of the charts' axes, pure and without widgets (docs/series-store.md, "Axes").
// Value axes start at 0 and step by 1, 2 or 5 × 10^k; labels carry an SI suffix (k, M) and the
// locale's separators. Time axes tick at round wall-clock times of a time zone (every
// 15 s, 1 min, 5 min, 1 h …, the finest step that keeps the ticks at or under a count).
namespace pd {

struct AxisTick {
    double value = 0; // value axes: the value; time axes: ms since the epoch
    QString label;
    bool operator==(const AxisTick &) const = default;
};

struct ValueTicks {
    double step = 1;
    double top = 1; // the axis runs from 0 to top; top is a multiple of step and at least the maximum
    QList<AxisTick> ticks;
};

struct TimeTicks {
    qint64 stepMs = 0;
    QList<AxisTick> ticks;
};

// The smallest 1, 2 or 5 × 10^k at or above `rough` (1 for anything not positive).
double niceStep(double rough);

// Ticks from 0 to the first multiple of a nice step that reaches `maxValue`, at most `maxTicks`
// ticks (0 included, at least 2). A maximum that is not positive gives 0 and 1. `minStep` keeps
// counts on whole numbers (1: never 0 / 0.5 / 1 instances).
ValueTicks valueTicks(double maxValue, int maxTicks, const QString &unit, const QLocale &locale, double minStep = 0);

// One tick label: the value divided by 1,000 or 1,000,000 when it is that large (suffix k, M), with
// the decimals the step needs (trailing zeros dropped: 0.5k, 1k, 1.5k) in the locale's digits and
// separators; the unit after a space ("%" and "/s" without one).
QString tickLabel(double value, double step, const QString &unit, const QLocale &locale);

// A value as an operator reads it in a tooltip: 12,500 tok/s, 1.25 s, 0.0123 s, 125k, 3.2M (three
// significant digits, never fewer than the integer part; trailing zeros dropped).
QString formatValue(double value, const QString &unit, const QLocale &locale);

// The locale as charts use it: with its thousands separator (the C locale omits it by default).
QLocale numberLocale(QLocale locale = QLocale());

// Ticks at round times of `zone` within [fromMs, toMs]: the finest of 1, 2, 5, 10, 15, 30 s,
// 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1 day with at most `maxTicks` ticks in the range;
// labelled HH:mm:ss below a minute, HH:mm otherwise. Alignment uses the zone's offset at fromMs.
TimeTicks timeTicks(qint64 fromMs, qint64 toMs, int maxTicks, const QTimeZone &zone);

} // namespace pd
