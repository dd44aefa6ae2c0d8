// SPDX-License-Identifier: MIT
#include "niceaxis.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace pd {

namespace {

constexpr double kSlack = 1e-9; // relative: 0.3 / 0.1 is 2.9999999999999996

// 10^e, exact for the integers and as near as a double gets for negative e (1 / 10^-e, not 10^e).
double powerOfTen(int e)
{
    return e >= 0 ? std::pow(10.0, e) : 1.0 / std::pow(10.0, -e);
}

int exponentOf(double v)
{
    return int(std::floor(std::log10(v) + kSlack));
}

struct Si {
    double divisor = 1;
    QString suffix;
};

Si siFor(double magnitude)
{
    if (magnitude >= 1e6 * (1 - kSlack))
        return { 1e6, QStringLiteral("M") };
    if (magnitude >= 1e3 * (1 - kSlack))
        return { 1e3, QStringLiteral("k") };
    return {};
}

QString withUnit(const QString &number, const QString &unit)
{
    if (unit.isEmpty())
        return number;
    if (unit.startsWith(QLatin1Char('%')) || unit.startsWith(QLatin1Char('/')))
        return number + unit;
    return number + QLatin1Char(' ') + unit;
}

// "1.50" -> "1.5", "2.0" -> "2" (in the locale's digits and decimal point).
QString trimmed(QString number, const QLocale &locale)
{
    if (!number.contains(locale.decimalPoint()))
        return number;
    while (number.endsWith(locale.zeroDigit()))
        number.chop(locale.zeroDigit().size());
    if (number.endsWith(locale.decimalPoint()))
        number.chop(locale.decimalPoint().size());
    return number;
}

qint64 floorDivide(qint64 a, qint64 b)
{
    return a / b - (a % b != 0 && (a < 0) != (b < 0) ? 1 : 0);
}

} // namespace

double niceStep(double rough)
{
    if (!(rough > 0) || !std::isfinite(rough))
        return 1.0;
    const int e = exponentOf(rough);
    for (const int m : { 1, 2, 5, 10 }) {
        const double candidate = m == 10 ? powerOfTen(e + 1) : m * powerOfTen(e);
        if (candidate >= rough * (1 - kSlack))
            return candidate;
    }
    return powerOfTen(e + 1);
}

ValueTicks valueTicks(double maxValue, int maxTicks, const QString &unit, const QLocale &locale, double minStep)
{
    const double top = std::isfinite(maxValue) && maxValue > 0 ? maxValue : 1.0;
    const int intervals = std::max(1, maxTicks - 1);
    ValueTicks out;
    out.step = niceStep(std::max(top / intervals, minStep));
    // step = m × 10^e: tick i is (i·m) × 10^e, computed once per tick (no running sum drifting off).
    const int e = exponentOf(out.step);
    const double mantissa = std::round(out.step / powerOfTen(e));
    const int count = std::max(1, int(std::ceil(top / out.step - kSlack)));
    for (int i = 0; i <= count; ++i) {
        const double value = e >= 0 ? i * mantissa * powerOfTen(e) : i * mantissa / powerOfTen(-e);
        out.ticks.append({ value, tickLabel(value, out.step, unit, locale) });
    }
    out.top = out.ticks.last().value;
    return out;
}

QString tickLabel(double value, double step, const QString &unit, const QLocale &locale)
{
    if (std::abs(value) < step * kSlack)
        return withUnit(locale.toString(0), unit); // "0", never "-0" or "0.00"
    const Si si = siFor(std::abs(value));
    const int decimals = std::clamp(-exponentOf(step / si.divisor), 0, 9);
    return withUnit(trimmed(locale.toString(value / si.divisor, 'f', decimals), locale) + si.suffix, unit);
}

QString formatValue(double value, const QString &unit, const QLocale &locale)
{
    if (!std::isfinite(value))
        return QString();
    const Si si = siFor(std::abs(value) >= 1e5 ? std::abs(value) : 0);
    const double shown = value / si.divisor;
    const int decimals = shown == 0 ? 0 : std::clamp(2 - exponentOf(std::abs(shown)), 0, 6);
    return withUnit(trimmed(locale.toString(shown, 'f', decimals), locale) + si.suffix, unit);
}

QLocale numberLocale(QLocale locale)
{
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

TimeTicks timeTicks(qint64 fromMs, qint64 toMs, int maxTicks, const QTimeZone &zone)
{
    static constexpr qint64 kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute;
    static constexpr qint64 kSteps[] = {
        kSecond,
        2 * kSecond,
        5 * kSecond,
        10 * kSecond,
        15 * kSecond,
        30 * kSecond,
        kMinute,
        2 * kMinute,
        5 * kMinute,
        10 * kMinute,
        15 * kMinute,
        30 * kMinute,
        kHour,
        2 * kHour,
        3 * kHour,
        6 * kHour,
        12 * kHour,
        24 * kHour,
    };
    TimeTicks out;
    if (toMs <= fromMs)
        return out;
    const QTimeZone tz = zone.isValid() ? zone : QTimeZone::utc();
    const qint64 offsetMs = qint64(tz.offsetFromUtc(QDateTime::fromMSecsSinceEpoch(fromMs, tz))) * 1000;
    const qint64 localFrom = fromMs + offsetMs, localTo = toMs + offsetMs;
    out.stepMs = *std::prev(std::end(kSteps));
    for (const qint64 step : kSteps) {
        const qint64 count = floorDivide(localTo, step) - floorDivide(localFrom + step - 1, step) + 1;
        if (count <= std::max(1, maxTicks)) {
            out.stepMs = step;
            break;
        }
    }
    const QString format = out.stepMs < kMinute ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm");
    for (qint64 local = floorDivide(localFrom + out.stepMs - 1, out.stepMs) * out.stepMs; local <= localTo;
         local += out.stepMs) {
        const qint64 ms = local - offsetMs;
        out.ticks.append({ double(ms), QDateTime::fromMSecsSinceEpoch(ms, tz).toString(format) });
    }
    return out;
}

} // namespace pd
