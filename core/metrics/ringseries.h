// SPDX-License-Identifier: MIT
#pragma once

#include "floatblockcodec.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

// A bounded ring of rows at one time resolution: row k holds every series' value for time slot k,
// i.e. [k·resolution, (k+1)·resolution) in ms since the epoch. Timestamps are implicit (head slot and
// resolution); a value is a float32 and NaN marks a gap.
//
// Storage (docs/series-store.md, "Memory"): slots are grouped in blocks of `blockSlots`. The head's
// block and the one before it are "hot": plain rows side by side, so that one poll round writes one
// contiguous row, exact. Older blocks are "sealed": each series' values of the block compressed on
// their own (FloatBlockCodec), so a chart reads one series without striding over every other. A block
// is sealed a few columns per advance once every row of it is final (the head has moved past it), so no
// round pays for a whole block; it is finished at once only when its rows are needed again. Memory
// grows with the history held: the hot rows are reserved at construction (resident once written), each
// sealed block is allocated when sealed, at its compressed size.
//
// Writes go to the head row only (and, through repeatHeadBack, to hot rows after the previous head):
// rows before the head are final.
namespace pd {

inline constexpr std::int64_t kNoSlot = std::numeric_limits<std::int64_t>::min();

struct RingCompression {
    int blockSlots = 120;        // slots per sealed block (at most kMaxBlockSlots)
    int keptMantissaBits = 23;   // precision of sealed values; 23 keeps every bit (FloatBlockCodec::keep)
    // Relative to each value, or to the largest magnitude of its block (FloatBlockCodec::ErrorBound).
    FloatBlockCodec::ErrorBound errorBound = FloatBlockCodec::ErrorBound::PerValue;
    static constexpr int kMaxBlockSlots = 256;
};

class RingSeries;

// One column of a ring, for readers (decimation, latest value). Valid while the ring is not written.
struct RingColumn {
    const RingSeries *ring = nullptr;
    int index = 0;
    std::int64_t resolutionMs = 1000;
    std::int64_t firstSlot = kNoSlot; // oldest slot still held (kNoSlot: empty)
    std::int64_t lastSlot = kNoSlot;  // head slot

    bool isEmpty() const { return firstSlot == kNoSlot; }
    // One slot's value (NaN outside what is held). A sealed slot decodes its block: read ranges with read().
    float at(std::int64_t slot) const;
    // The values of the held slots [from, to] into out[0 .. to-from], each sealed block decoded once.
    void read(std::int64_t from, std::int64_t to, float *out) const;
};

class RingSeries final {
public:
    RingSeries(int capacity, int width, int resolutionMs, RingCompression compression = {});
    ~RingSeries();
    RingSeries(const RingSeries &) = delete;
    RingSeries &operator=(const RingSeries &) = delete;

    int capacity() const { return m_capacity; }
    int width() const { return m_width; }
    int resolutionMs() const { return m_resolutionMs; }
    int blockSlots() const { return m_blockSlots; }
    std::int64_t slotOf(std::int64_t timeMs) const;
    std::int64_t headSlot() const { return m_head; }   // kNoSlot while empty
    std::int64_t firstSlot() const;                    // oldest slot held, kNoSlot while empty
    bool contains(std::int64_t slot) const { return m_head != kNoSlot && slot <= m_head && slot >= firstSlot(); }

    // Makes `slot` the head. Every row after the old head up to `slot` becomes a gap (all NaN); a jump
    // of a whole capacity or more drops everything held. Slots at or before the head: no change.
    void advanceTo(std::int64_t slot);
    // The head row, to write (nullptr while empty).
    float *headRow();
    const float *headRow() const;
    // Copies the head row over the held rows after `oldHead` that are still hot (a round whose values
    // cover the slots it skipped); rows already sealed stay gaps. Returns how many rows it wrote.
    int repeatHeadBack(std::int64_t oldHead);
    float value(std::int64_t slot, int column) const;
    // Values of one column for the held slots [from, to] into out[0 .. to-from].
    void read(int column, std::int64_t from, std::int64_t to, float *out) const;
    RingColumn column(int column) const;
    void clear();

    // Accounting: bytes allocated for samples now (the hot rows reserved, every sealed block and the
    // decoded columns kept for readers), how many samples are held, and the sealed part alone.
    std::size_t storageBytes() const;
    std::size_t samplesHeld() const;
    std::size_t sealedBytes() const;
    std::size_t sealedSamples() const;
    std::size_t sampleCapacity() const { return std::size_t(m_capacity) * std::size_t(m_width); }

private:
    struct SealedBlock {
        std::int64_t block = -1;              // block number; -1: unused entry
        // Where each encoded column is in bytes: its size, and the offset of every kAnchorEvery-th column
        // (a column starts at its group's anchor plus the sizes before it in the group), about 2.1
        // bytes a column rather than a 4-byte offset each.
        static constexpr int kAnchorEvery = 32;
        std::vector<std::uint16_t> sizes;
        std::vector<std::uint32_t> anchors;
        std::vector<std::uint8_t> bytes;
        void start(int width);
        void columnEncoded(int column, std::size_t begin); // bytes[begin..end) is the column's encoding
        std::pair<std::uint32_t, std::uint32_t> columnRange(int column) const; // begin, end
        std::size_t allocated() const
        {
            return sizes.capacity() * sizeof(std::uint16_t) + anchors.capacity() * sizeof(std::uint32_t)
                + bytes.capacity();
        }
    };

    std::int64_t blockOf(std::int64_t slot) const { return slot / m_blockSlots; }
    std::int64_t blockStart(std::int64_t block) const { return block * m_blockSlots; }
    float *hotRow(std::int64_t slot) const
    {
        return m_hot.get() + std::size_t(slot % m_hotRows) * std::size_t(m_width);
    }
    bool isHot(std::int64_t block) const { return block >= blockOf(m_head) - 1; }
    void restartAt(std::int64_t slot);
    void fillGaps(std::int64_t from, std::int64_t to);
    void sealSome(std::int64_t slotsAdvanced);
    void sealThrough(std::int64_t block);
    void sealColumns(std::int64_t block, int endColumn);
    void dropSealed();
    const SealedBlock *sealed(std::int64_t block) const;
    void decodeColumn(std::int64_t block, int column, float *out) const;
    const float *decodedColumn(std::int64_t block, int column) const;

    int m_capacity;
    int m_width;
    int m_resolutionMs;
    int m_blockSlots;
    int m_keptMantissaBits;
    FloatBlockCodec::ErrorBound m_errorBound;
    int m_hotRows;
    std::int64_t m_head = kNoSlot;
    std::int64_t m_first = kNoSlot;    // first slot written since the last clear or jump
    std::int64_t m_sealedThrough = -1; // every block up to this one is sealed (or holds nothing)
    int m_sealedColumns = 0;           // columns of block m_sealedThrough + 1 sealed so far
    std::unique_ptr<float[]> m_hot;    // 2 blocks of rows
    std::vector<SealedBlock> m_sealed; // indexed by block % size
    std::vector<float> m_tile;         // sealing scratch: a few columns × one block
    // Decoded sealed columns, direct-mapped by (block, column): charts redraw the same ranges every
    // round, so a redraw copies what the previous one decoded. Allocated at the first sealed read;
    // emptied with the sealed blocks. Like the whole ring, used from one thread.
    static constexpr std::size_t kDecodedEntries = 4096;
    mutable std::vector<std::int64_t> m_decodedKeys; // block * width + column, -1: empty
    mutable std::unique_ptr<float[]> m_decoded;      // kDecodedEntries × blockSlots, touched as used
};

} // namespace pd
