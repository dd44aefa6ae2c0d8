// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

// A bounded ring of rows at one time resolution: row k holds every series' value for time slot k,
// i.e. [k·resolution, (k+1)·resolution) in ms since the epoch. Timestamps are implicit (head slot and
// resolution); a value is a float32 and NaN marks a gap. Rows are side by side so that one poll round
// writes one contiguous row; one series is a column read with a stride.
//
// Memory: capacity × width × 4 bytes, reserved at construction but not touched: a row's pages become
// resident when the row is first written, so a young store costs what it holds.
namespace pd {

inline constexpr std::int64_t kNoSlot = std::numeric_limits<std::int64_t>::min();

// One column of a ring, for readers (decimation, latest value). Valid while the ring is not written.
struct RingColumn {
    const float *base = nullptr; // column 0 of storage row 0, offset by the column
    std::size_t stride = 0;      // floats between consecutive rows
    std::int64_t capacity = 0;
    std::int64_t resolutionMs = 1000;
    std::int64_t firstSlot = kNoSlot; // oldest slot still held (kNoSlot: empty)
    std::int64_t lastSlot = kNoSlot;  // head slot

    bool isEmpty() const { return firstSlot == kNoSlot; }
    float at(std::int64_t slot) const { return base[std::size_t(slot % capacity) * stride]; }
};

class RingSeries final {
public:
    RingSeries(int capacity, int width, int resolutionMs);

    int capacity() const { return m_capacity; }
    int width() const { return m_width; }
    int resolutionMs() const { return m_resolutionMs; }
    std::int64_t slotOf(std::int64_t timeMs) const;
    std::int64_t headSlot() const { return m_head; }   // kNoSlot while empty
    std::int64_t firstSlot() const;                    // oldest slot held, kNoSlot while empty
    bool contains(std::int64_t slot) const { return m_head != kNoSlot && slot <= m_head && slot >= firstSlot(); }

    // Makes `slot` the head. Every row after the old head up to `slot` becomes a gap (all NaN); a jump
    // of a whole capacity or more drops everything held. Slots at or before the head: no change.
    void advanceTo(std::int64_t slot);
    // The row of a held slot (nullptr otherwise).
    float *row(std::int64_t slot);
    const float *row(std::int64_t slot) const;
    float value(std::int64_t slot, int column) const;
    RingColumn column(int column) const;
    void clear();

    // Accounting: the storage reserved (bytes) and how many samples it holds when full.
    std::size_t storageBytes() const { return std::size_t(m_capacity) * std::size_t(m_width) * sizeof(float); }
    std::size_t sampleCapacity() const { return std::size_t(m_capacity) * std::size_t(m_width); }
    static constexpr std::size_t bytesPerSample() { return sizeof(float); }

private:
    float *rowAt(std::int64_t slot) const { return m_data.get() + std::size_t(slot % m_capacity) * std::size_t(m_width); }

    int m_capacity;
    int m_width;
    int m_resolutionMs;
    std::int64_t m_head = kNoSlot;
    std::int64_t m_first = kNoSlot; // first slot written since the last clear
    std::unique_ptr<float[]> m_data;
};

} // namespace pd
