// SPDX-License-Identifier: MIT
#include "ringseries.h"
#include "quietnan.h"

#include "floatblockcodec.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>

namespace pd {

namespace {
constexpr int kTileColumns = 16; // one cache line of a row per tile row
} // namespace

float RingColumn::at(std::int64_t slot) const
{
    return ring ? ring->value(slot, index) : kNanF;
}

void RingColumn::read(std::int64_t from, std::int64_t to, float *out) const
{
    if (ring)
        ring->read(index, from, to, out);
    else if (to >= from)
        std::fill_n(out, std::size_t(to - from + 1), kNanF);
}

RingSeries::RingSeries(int capacity, int width, int resolutionMs, RingCompression compression)
    : m_capacity(std::max(1, capacity))
    , m_width(std::max(1, width))
    , m_resolutionMs(std::max(1, resolutionMs))
    , m_blockSlots(std::clamp(compression.blockSlots, 1, std::min(m_capacity, RingCompression::kMaxBlockSlots)))
    , m_keptMantissaBits(std::clamp(compression.keptMantissaBits, 0, FloatBlockCodec::kFullMantissa))
    , m_errorBound(compression.errorBound)
    , m_hotRows(2 * m_blockSlots)
    // Not value-initialised on purpose: untouched pages stay unresident until a row is written.
    , m_hot(new float[std::size_t(m_hotRows) * std::size_t(m_width)])
    , m_sealed(std::size_t((m_capacity + m_blockSlots - 1) / m_blockSlots + 2))
{
}

RingSeries::~RingSeries() = default;

std::int64_t RingSeries::slotOf(std::int64_t timeMs) const
{
    // Floor division (times before 1970 are not expected, but stay correct).
    std::int64_t q = timeMs / m_resolutionMs;
    if (timeMs % m_resolutionMs < 0)
        --q;
    return q;
}

std::int64_t RingSeries::firstSlot() const
{
    if (m_head == kNoSlot)
        return kNoSlot;
    return std::max(m_first, m_head - m_capacity + 1);
}

void RingSeries::fillGaps(std::int64_t from, std::int64_t to)
{
    for (std::int64_t s = std::max(from, to - m_hotRows + 1); s <= to; ++s)
        std::fill_n(hotRow(s), m_width, kNanF);
}

void RingSeries::restartAt(std::int64_t slot)
{
    dropSealed();
    m_first = slot;
    m_head = slot;
    // The block before the first one holds nothing; the first one's rows before `slot` are gaps.
    m_sealedThrough = blockOf(slot) - 1;
    m_sealedColumns = 0;
    fillGaps(blockStart(blockOf(slot)), slot);
}

void RingSeries::advanceTo(std::int64_t slot)
{
    assert(slot >= 0);
    if (m_head != kNoSlot && slot <= m_head)
        return;
    if (m_head == kNoSlot || slot - m_head >= m_capacity) {
        restartAt(slot);
        return;
    }
    const std::int64_t oldBlock = blockOf(m_head);
    const std::int64_t newBlock = blockOf(slot);
    if (newBlock == oldBlock) {
        // Every row up to the old head is final: the block before it can be sealed, a share at a time.
        sealSome(slot - m_head);
        fillGaps(m_head + 1, slot);
    } else if (newBlock == oldBlock + 1) {
        // The new block reuses the rows of the block before the old one: that one must be sealed now.
        // The old head's block is not sealed yet: this round may still fill its rows after the old head.
        sealThrough(oldBlock - 1);
        fillGaps(m_head + 1, slot);
    } else {
        // A jump over at least one whole block: the old head's block is final (its rest are gaps), the
        // blocks in between hold nothing, and the hot rows start over as gaps.
        fillGaps(m_head + 1, blockStart(oldBlock + 1) - 1);
        sealThrough(oldBlock);
        m_sealedThrough = newBlock - 1;
        m_sealedColumns = 0;
        fillGaps(blockStart(newBlock - 1), slot);
    }
    m_head = slot;
}

float *RingSeries::headRow()
{
    return m_head == kNoSlot ? nullptr : hotRow(m_head);
}

const float *RingSeries::headRow() const
{
    return m_head == kNoSlot ? nullptr : hotRow(m_head);
}

int RingSeries::repeatHeadBack(std::int64_t oldHead)
{
    if (m_head == kNoSlot || oldHead == kNoSlot)
        return 0;
    const std::int64_t from = std::max({oldHead + 1, firstSlot(), blockStart(m_sealedThrough + 1)});
    const float *src = hotRow(m_head);
    int written = 0;
    for (std::int64_t s = from; s < m_head; ++s, ++written)
        std::memcpy(hotRow(s), src, sizeof(float) * std::size_t(m_width));
    return written;
}

void RingSeries::sealSome(std::int64_t slotsAdvanced)
{
    const std::int64_t block = m_sealedThrough + 1;
    if (m_head == kNoSlot || block != blockOf(m_head) - 1)
        return;
    // Paced to finish within half a block of advances, long before its rows are reused.
    const std::int64_t share = (std::int64_t(m_width) * std::max<std::int64_t>(1, slotsAdvanced) * 2 + m_blockSlots - 1)
        / m_blockSlots;
    sealColumns(block, int(std::min<std::int64_t>(m_width, m_sealedColumns + std::max<std::int64_t>(1, share))));
}

void RingSeries::sealThrough(std::int64_t block)
{
    while (m_sealedThrough < block)
        sealColumns(m_sealedThrough + 1, m_width);
}

void RingSeries::sealColumns(std::int64_t block, int endColumn)
{
    SealedBlock &entry = m_sealed[std::size_t(block % std::int64_t(m_sealed.size()))];
    if (m_sealedColumns == 0) {
        entry.block = block;
        entry.start(m_width);
    }
    const std::int64_t start = blockStart(block);
    const int slots = m_blockSlots;
    m_tile.resize(std::size_t(kTileColumns) * std::size_t(slots));
    for (int c0 = m_sealedColumns; c0 < endColumn; c0 += kTileColumns) {
        const int n = std::min(kTileColumns, endColumn - c0);
        // Gather n columns of the block row by row (each row's n values share a cache line), then
        // encode each column's run of values.
        for (int i = 0; i < slots; ++i) {
            const float *row = hotRow(start + i) + c0;
            for (int j = 0; j < n; ++j)
                m_tile[std::size_t(j) * std::size_t(slots) + std::size_t(i)] = row[j];
        }
        for (int j = 0; j < n; ++j) {
            const std::size_t begin = entry.bytes.size();
            FloatBlockCodec::encode(m_tile.data() + std::size_t(j) * std::size_t(slots), slots, m_keptMantissaBits,
                entry.bytes, m_errorBound);
            entry.columnEncoded(c0 + j, begin);
        }
    }
    m_sealedColumns = endColumn;
    if (m_sealedColumns >= m_width) {
        entry.bytes.shrink_to_fit();
        m_sealedThrough = block;
        m_sealedColumns = 0;
    }
}

// A column's encoding is at most kMaxBlockSlots values of 44 bits (the XOR form's worst) and a head.
static_assert(RingCompression::kMaxBlockSlots * 44 / 8 + 16 <= 0xffff, "a column's size must fit 16 bits");

void RingSeries::SealedBlock::start(int width)
{
    sizes.assign(std::size_t(width), 0);
    anchors.assign(std::size_t((width + kAnchorEvery - 1) / kAnchorEvery), 0);
    bytes.clear();
}

void RingSeries::SealedBlock::columnEncoded(int column, std::size_t begin)
{
    sizes[std::size_t(column)] = std::uint16_t(bytes.size() - begin);
    if (column % kAnchorEvery == 0)
        anchors[std::size_t(column / kAnchorEvery)] = std::uint32_t(begin);
}

std::pair<std::uint32_t, std::uint32_t> RingSeries::SealedBlock::columnRange(int column) const
{
    const int group = column / kAnchorEvery;
    std::uint32_t begin = anchors[std::size_t(group)];
    for (int c = group * kAnchorEvery; c < column; ++c)
        begin += sizes[std::size_t(c)];
    return { begin, begin + sizes[std::size_t(column)] };
}

void RingSeries::dropSealed()
{
    for (SealedBlock &entry : m_sealed)
        entry = SealedBlock();
    m_decodedKeys.clear();
    m_decodedKeys.shrink_to_fit();
    m_decoded.reset();
}

const RingSeries::SealedBlock *RingSeries::sealed(std::int64_t block) const
{
    const SealedBlock &entry = m_sealed[std::size_t(block % std::int64_t(m_sealed.size()))];
    return entry.block == block ? &entry : nullptr;
}

void RingSeries::decodeColumn(std::int64_t block, int column, float *out) const
{
    const SealedBlock *entry = sealed(block);
    if (!entry) { // a block the ring jumped over: nothing was held
        std::fill_n(out, m_blockSlots, kNanF);
        return;
    }
    const auto [begin, end] = entry->columnRange(column);
    FloatBlockCodec::decode(entry->bytes.data() + begin, end - begin, m_blockSlots, out);
}

const float *RingSeries::decodedColumn(std::int64_t block, int column) const
{
    if (m_decodedKeys.empty()) {
        m_decodedKeys.assign(kDecodedEntries, -1);
        // Not value-initialised: an entry's pages become resident when it is first filled.
        m_decoded.reset(new float[kDecodedEntries * std::size_t(m_blockSlots)]);
    }
    const std::int64_t key = block * m_width + column;
    const std::size_t entry = std::size_t((std::uint64_t(key) * 0x9E3779B97F4A7C15ull) >> 52) % kDecodedEntries;
    float *values = m_decoded.get() + entry * std::size_t(m_blockSlots);
    if (m_decodedKeys[entry] != key) {
        decodeColumn(block, column, values);
        m_decodedKeys[entry] = key;
    }
    return values;
}

float RingSeries::value(std::int64_t slot, int column) const
{
    if (!contains(slot) || column < 0 || column >= m_width)
        return kNanF;
    const std::int64_t block = blockOf(slot);
    if (isHot(block))
        return hotRow(slot)[column];
    return decodedColumn(block, column)[slot - blockStart(block)];
}

void RingSeries::read(int column, std::int64_t from, std::int64_t to, float *out) const
{
    if (to < from)
        return;
    if (column < 0 || column >= m_width || m_head == kNoSlot) {
        std::fill_n(out, std::size_t(to - from + 1), kNanF);
        return;
    }
    std::int64_t s = from;
    while (s <= to) {
        const std::int64_t block = blockOf(s);
        const std::int64_t end = std::min(to, blockStart(block + 1) - 1);
        if (!contains(s) || !contains(end)) {
            for (; s <= end; ++s)
                *out++ = value(s, column);
            continue;
        }
        if (isHot(block)) {
            for (; s <= end; ++s)
                *out++ = hotRow(s)[column];
            continue;
        }
        const float *values = decodedColumn(block, column);
        const std::int64_t first = s - blockStart(block);
        const std::size_t count = std::size_t(end - s + 1);
        std::copy_n(values + first, count, out);
        out += count;
        s = end + 1;
    }
}

RingColumn RingSeries::column(int column) const
{
    RingColumn c;
    c.ring = this;
    c.index = column;
    c.resolutionMs = m_resolutionMs;
    c.firstSlot = firstSlot();
    c.lastSlot = m_head;
    return c;
}

void RingSeries::clear()
{
    m_head = kNoSlot;
    m_first = kNoSlot;
    m_sealedThrough = -1;
    m_sealedColumns = 0;
    dropSealed();
}

std::size_t RingSeries::sealedBytes() const
{
    std::size_t bytes = 0;
    for (const SealedBlock &entry : m_sealed)
        bytes += entry.allocated();
    return bytes;
}

std::size_t RingSeries::storageBytes() const
{
    return std::size_t(m_hotRows) * std::size_t(m_width) * sizeof(float) + sealedBytes()
        + (m_decoded ? kDecodedEntries * std::size_t(m_blockSlots) * sizeof(float) : 0)
        + m_decodedKeys.capacity() * sizeof(std::int64_t);
}

std::size_t RingSeries::samplesHeld() const
{
    return m_head == kNoSlot ? 0 : std::size_t(m_head - firstSlot() + 1) * std::size_t(m_width);
}

std::size_t RingSeries::sealedSamples() const
{
    if (m_head == kNoSlot)
        return 0;
    const std::int64_t hotStart = blockStart(blockOf(m_head) - 1);
    return std::size_t(std::max<std::int64_t>(0, hotStart - firstSlot())) * std::size_t(m_width);
}

} // namespace pd
