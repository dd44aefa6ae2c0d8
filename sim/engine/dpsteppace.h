// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>

// The coupled step time of a DP group (dp-groups.md §1): the expert layers of every rank synchronise in
// each forward pass, so while any rank has work the group steps at its slowest rank's pace. Each rank
// publishes the load-dependent step time of the step it is starting (0 when it has nothing to run) in
// its slot and takes the group's largest. Ranks live on different threads: the slots are atomics, and a
// rank reads the others' latest values (the simulator's ranks are not stepped in lockstep, so this is
// the group's pace to within one step).
namespace pd::sim {

class DpStepPace final {
public:
    explicit DpStepPace(int ranks)
        : m_size(ranks > 0 ? ranks : 1)
        , m_slots(std::make_unique<std::atomic<double>[]>(std::size_t(m_size)))
    {
        for (int i = 0; i < m_size; ++i)
            m_slots[std::size_t(i)].store(0.0, std::memory_order_relaxed);
    }

    int size() const { return m_size; }

    // Publishes this rank's step time (0: idle, stopped) and returns the group's step time.
    double couple(int slot, double seconds)
    {
        if (slot < 0 || slot >= m_size)
            return seconds;
        m_slots[std::size_t(slot)].store(seconds, std::memory_order_relaxed);
        if (seconds <= 0)
            return seconds;
        double slowest = seconds;
        for (int i = 0; i < m_size; ++i)
            slowest = std::max(slowest, m_slots[std::size_t(i)].load(std::memory_order_relaxed));
        return slowest;
    }
    void idle(int slot) { couple(slot, 0.0); }

private:
    int m_size;
    std::unique_ptr<std::atomic<double>[]> m_slots;
};

} // namespace pd::sim
