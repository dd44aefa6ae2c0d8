// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>

// Simulated time in seconds since an arbitrary origin. The load model reads time only through this seam,
// so tests drive it by hand and the engine drives it from a scaled monotonic clock.
namespace pd::sim {

class SimClock {
public:
    virtual ~SimClock() = default;
    virtual double now() const = 0;
};

// Real monotonic time multiplied by a scale factor (time-scale 10: ten simulated seconds per second).
class ScaledClock final : public SimClock {
public:
    explicit ScaledClock(double scale);
    double now() const override;
    double scale() const { return m_scale; }
    // Real milliseconds from now until simulated time t (never negative).
    qint64 realMsUntil(double t) const;

private:
    QElapsedTimer m_timer;
    double m_scale;
};

class ManualClock final : public SimClock {
public:
    double now() const override { return m_now; }
    void set(double t) { m_now = t; }
    void advance(double dt) { m_now += dt; }

private:
    double m_now = 0.0;
};

} // namespace pd::sim
