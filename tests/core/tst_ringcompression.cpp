// SPDX-License-Identifier: MIT
// The series store's compressed history: FloatBlockCodec (XOR of consecutive float32 values, the
// mantissa rounded to the kept bits, or multiples of one step under the block bound) and RingSeries sealing blocks of
// slots behind the head. What a ring returns must not depend on whether a slot is still hot or already sealed, beyond
// the documented rounding; bad encoded bytes decode to gaps, never to values.
#include "metrics/decimate.h"
#include "metrics/floatblockcodec.h"
#include "metrics/ringseries.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace pd;

namespace {
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

bool sameValue(float a, float b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

using Bound = FloatBlockCodec::ErrorBound;

std::vector<float> roundTrip(const std::vector<float> &values, int kept, std::size_t *bytes = nullptr,
    Bound bound = Bound::PerValue, std::uint8_t *tag = nullptr)
{
    std::vector<std::uint8_t> encoded;
    FloatBlockCodec::encode(values.data(), int(values.size()), kept, encoded, bound);
    if (bytes)
        *bytes = encoded.size();
    if (tag)
        *tag = encoded.empty() ? 0xff : encoded[0];
    std::vector<float> decoded(values.size());
    if (!FloatBlockCodec::decode(encoded.data(), encoded.size(), int(values.size()), decoded.data()))
        decoded.assign(values.size(), -1.0f);
    return decoded;
}
} // namespace

class TestRingCompression : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void losslessRoundTrip_data()
    {
        QTest::addColumn<Bound>("bound");
        QTest::newRow("per value") << Bound::PerValue;
        QTest::newRow("block largest") << Bound::BlockLargest; // 23 bits: nothing may be lost either way
    }

    void losslessRoundTrip()
    {
        QFETCH(Bound, bound);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1e6f, 1e6f);
        std::vector<float> v;
        for (int i = 0; i < 120; ++i)
            v.push_back(u(rng));
        v[3] = kNan;
        v[4] = kNan;
        v[10] = std::numeric_limits<float>::infinity();
        v[11] = -std::numeric_limits<float>::infinity();
        v[12] = -0.0f;
        v[13] = std::numeric_limits<float>::denorm_min();
        v[14] = std::numeric_limits<float>::max();
        v[15] = v[16] = v[17] = 42.0f;
        const std::vector<float> back = roundTrip(v, FloatBlockCodec::kFullMantissa, nullptr, bound);
        for (std::size_t i = 0; i < v.size(); ++i)
            QVERIFY2((sameValue(back[i], v[i]) && std::signbit(back[i]) == std::signbit(v[i])) || std::isnan(v[i]),
                     qPrintable(QStringLiteral("slot %1: %2 became %3").arg(i).arg(v[i]).arg(back[i])));
    }

    void cheapCases()
    {
        std::size_t bytes = 0;
        QVERIFY(std::isnan(roundTrip(std::vector<float>(120, kNan), 23, &bytes)[77]));
        QCOMPARE(bytes, std::size_t(1)); // a block of gaps is its tag
        QCOMPARE(roundTrip(std::vector<float>(120, 3.5f), 23, &bytes)[119], 3.5f);
        QCOMPARE(bytes, std::size_t(5)); // a constant is its tag and its value
        std::vector<float> counts(120);
        for (std::size_t i = 0; i < counts.size(); ++i)
            counts[i] = float(int(i) % 4 + 12); // a running-requests gauge: small integers
        QCOMPARE(roundTrip(counts, 23, &bytes), counts);
        QVERIFY2(bytes <= 120, qPrintable(QString::number(bytes))); // at most a byte per sample
        std::vector<float> gappy(120, 7.0f);
        for (std::size_t i = 0; i < gappy.size(); i += 10)
            gappy[i] = kNan;
        const auto back = roundTrip(gappy, 23, &bytes);
        for (std::size_t i = 0; i < gappy.size(); ++i)
            QVERIFY(sameValue(back[i], gappy[i]));
    }

    void keptBitsBoundTheError_data()
    {
        QTest::addColumn<int>("kept");
        QTest::newRow("10 bits") << 10;
        QTest::newRow("12 bits") << 12;
        QTest::newRow("16 bits") << 16;
    }

    void keptBitsBoundTheError()
    {
        QFETCH(int, kept);
        std::mt19937 rng(11);
        std::lognormal_distribution<float> rate(6.0f, 1.5f);
        std::vector<float> v(120);
        for (float &x : v)
            x = rate(rng);
        std::uint8_t tag = 0;
        const std::vector<float> back = roundTrip(v, kept, nullptr, Bound::PerValue, &tag);
        QVERIFY(tag != FloatBlockCodec::kScaled); // each value keeps its own bits
        const double bound = std::ldexp(1.0, -(kept + 1));
        for (std::size_t i = 0; i < v.size(); ++i) {
            QCOMPARE(back[i], FloatBlockCodec::keep(v[i], kept));
            QVERIFY2(std::abs(double(back[i]) - double(v[i])) <= bound * std::abs(double(v[i])),
                     qPrintable(QStringLiteral("%1 -> %2").arg(v[i]).arg(back[i])));
        }
        // Integers that fit the kept bits are exact: counts and percentages stay what they were.
        QCOMPARE(FloatBlockCodec::keep(1500.0f, kept), 1500.0f);
        QVERIFY(std::isinf(FloatBlockCodec::keep(std::numeric_limits<float>::infinity(), kept)));
        QCOMPARE(FloatBlockCodec::keep(std::numeric_limits<float>::max(), kept) <= std::numeric_limits<float>::max(), true);
        QVERIFY(std::isnan(FloatBlockCodec::keep(kNan, kept)));
    }

    // Noisy blocks of one magnitude (what 10 s means and quantiles of a busy pool look like) are stored
    // as multiples of one step when the block bound allows it: fewer bytes than each value's own kept
    // bits, every value within 2^-(kept+1) of the block's largest magnitude, gaps and zero exact.
    void blockBoundScalesNoisyBlocks_data()
    {
        QTest::addColumn<int>("kept");
        QTest::addColumn<QString>("shape");
        for (int kept : { 10, 12 }) {
            for (const char *shape : { "uniform", "narrow", "signed", "spiky" })
                QTest::addRow("%d bits, %s", kept, shape) << kept << QString::fromLatin1(shape);
        }
    }

    void blockBoundScalesNoisyBlocks()
    {
        QFETCH(int, kept);
        QFETCH(QString, shape);
        std::mt19937 rng(23);
        std::uniform_real_distribution<float> unit(0.0f, 1.0f);
        std::vector<float> v(120);
        for (std::size_t i = 0; i < v.size(); ++i) {
            const float u = unit(rng);
            if (shape == QLatin1String("uniform"))
                v[i] = 900.0f * u; // a rate drawn anew each slot
            else if (shape == QLatin1String("narrow"))
                v[i] = 250.0f * (0.9f + 0.2f * u); // a 10 s mean: one magnitude
            else if (shape == QLatin1String("signed"))
                v[i] = 100.0f * u - 50.0f;
            else
                v[i] = i == 60 ? 30.0f : 0.2f + 0.05f * u; // a p99 latency, seconds, with one stall
        }
        v[7] = kNan;
        v[8] = kNan;
        v[9] = 0.0f;
        std::size_t scaledBytes = 0, ownBytes = 0;
        std::uint8_t tag = 0;
        const std::vector<float> back = roundTrip(v, kept, &scaledBytes, Bound::BlockLargest, &tag);
        roundTrip(v, kept, &ownBytes, Bound::PerValue);
        QCOMPARE(int(tag), int(FloatBlockCodec::kScaled));
        QVERIFY2(scaledBytes < ownBytes, qPrintable(QStringLiteral("%1 >= %2").arg(scaledBytes).arg(ownBytes)));
        // The codes are at most kept + 2 bits wide (the largest, its sign, the gap code), plus a head.
        QVERIFY2(
            scaledBytes <= 8 + (v.size() * std::size_t(kept + 2) + 7) / 8, qPrintable(QString::number(scaledBytes)));
        double largest = 0;
        for (float x : v)
            if (!std::isnan(x))
                largest = std::max(largest, double(std::abs(x)));
        const double bound = std::ldexp(largest, -(kept + 1));
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (std::isnan(v[i])) {
                QVERIFY(std::isnan(back[i]));
                continue;
            }
            QVERIFY2(std::abs(double(back[i]) - double(v[i])) <= bound,
                qPrintable(QStringLiteral("slot %1: %2 -> %3, bound %4").arg(i).arg(v[i]).arg(back[i]).arg(bound)));
        }
        QCOMPARE(back[9], 0.0f);
        QVERIFY(!std::signbit(back[9]));
    }

    // What the block bound does not change: whole-number blocks stay packed and exact, a block with an
    // infinity keeps each value's bits, and a lone large value does not cost the others their sign.
    void blockBoundKeepsExactCases()
    {
        std::vector<float> counts(120);
        for (std::size_t i = 0; i < counts.size(); ++i)
            counts[i] = float((i * 37) % 2000); // small and large counts in one block: 37 stays 37
        std::uint8_t tag = 0;
        QCOMPARE(roundTrip(counts, 10, nullptr, Bound::BlockLargest, &tag), counts);
        QCOMPARE(int(tag), int(FloatBlockCodec::kPacked));

        std::vector<float> withInf(120);
        for (std::size_t i = 0; i < withInf.size(); ++i)
            withInf[i] = 100.0f + float(i) * 0.37f;
        withInf[5] = std::numeric_limits<float>::infinity();
        const auto back = roundTrip(withInf, 12, nullptr, Bound::BlockLargest, &tag);
        QVERIFY(tag != FloatBlockCodec::kScaled);
        QVERIFY(std::isinf(back[5]));
        for (std::size_t i = 0; i < withInf.size(); ++i)
            if (i != 5)
                QCOMPARE(back[i], FloatBlockCodec::keep(withInf[i], 12));
    }

    // A ring wider than one anchor group of the sealed column index (3 groups, the last one partial),
    // each column its own size: every sealed column reads back within the block bound.
    void sealedColumnsAcrossAnchorGroups()
    {
        constexpr int kWidth = 70;
        RingSeries ring(600, kWidth, 1000, RingCompression { 16, 10, Bound::BlockLargest });
        std::vector<std::vector<float>> written(300, std::vector<float>(kWidth));
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> unit(0.0f, 1.0f);
        for (std::int64_t s = 0; s < 300; ++s) {
            ring.advanceTo(s);
            for (int c = 0; c < kWidth; ++c) {
                // Columns of different magnitudes and kinds: constants, whole numbers, noise, gaps.
                const float x = c % 5 == 0 ? float(c)
                    : c % 5 == 1           ? float(int(unit(rng) * 40.0f))
                    : c % 5 == 2           ? kNan
                                           : float(c) * 10.0f * unit(rng);
                ring.headRow()[c] = x;
                written[std::size_t(s)][std::size_t(c)] = x;
            }
        }
        QVERIFY(ring.sealedSamples() >= std::size_t(250 * kWidth));
        for (int c = 0; c < kWidth; ++c) {
            const double bound = std::ldexp(double(c) * 10.0, -11);
            for (std::int64_t s = ring.firstSlot(); s <= ring.headSlot(); ++s) {
                const float want = written[std::size_t(s)][std::size_t(c)];
                const float got = ring.value(s, c);
                QVERIFY2(std::isnan(want) ? std::isnan(got) : std::abs(double(got) - double(want)) <= bound,
                    qPrintable(
                        QStringLiteral("slot %1, column %2: %3 instead of %4").arg(s).arg(c).arg(got).arg(want)));
            }
        }
    }

    void badBytesDecodeToGaps()
    {
        std::vector<float> v(60);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = float(i) * 1.37f;
        std::vector<std::uint8_t> encoded;
        FloatBlockCodec::encode(v.data(), int(v.size()), 23, encoded);
        std::vector<float> out(v.size(), 0.0f);
        for (std::size_t cut : {std::size_t(0), std::size_t(1), std::size_t(3), encoded.size() / 2, encoded.size() - 1}) {
            QVERIFY(!FloatBlockCodec::decode(encoded.data(), cut, int(v.size()), out.data()));
            for (float x : out)
                QVERIFY(std::isnan(x));
        }
        std::vector<std::uint8_t> unknown = encoded;
        unknown[0] = 9;
        QVERIFY(!FloatBlockCodec::decode(unknown.data(), unknown.size(), int(v.size()), out.data()));
        const std::uint8_t shortConstant[] = {FloatBlockCodec::kConstant, 1, 2};
        QVERIFY(!FloatBlockCodec::decode(shortConstant, sizeof shortConstant, 4, out.data()));
        // Scaled blocks: a width of 0 or past 24 bits, a smallest multiple whose bytes never end or that
        // is too large for a float to hold exactly, a head cut short, steps of 2^-128 and 2^127, codes
        // cut short.
        const std::vector<std::vector<std::uint8_t>> badScaled = {
            { FloatBlockCodec::kScaled, 0, 0, 0, 0xff },
            { FloatBlockCodec::kScaled, 0, 25, 0, 0xff },
            { FloatBlockCodec::kScaled, 0, 8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80 },
            { FloatBlockCodec::kScaled, 0, 8, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xff },
            { FloatBlockCodec::kScaled, 0, 8 },
            { FloatBlockCodec::kScaled, 0x80, 8, 0, 0, 0, 0, 0 },
            { FloatBlockCodec::kScaled, 0x7f, 8, 0, 0, 0, 0, 0 },
            { FloatBlockCodec::kScaled, 0, 8, 2, 1, 2, 3 },
        };
        for (const auto &bytes : badScaled) {
            QVERIFY(!FloatBlockCodec::decode(bytes.data(), bytes.size(), 4, out.data()));
            for (int i = 0; i < 4; ++i)
                QVERIFY(std::isnan(out[std::size_t(i)]));
        }
        // Random bytes behind every tag: decoding reads only what it was given (ASan watches this test)
        // and a failure leaves nothing but gaps.
        std::mt19937 rng(29);
        std::uniform_int_distribution<int> byte(0, 255), length(0, 40);
        std::vector<float> many(120);
        for (int round = 0; round < 20'000; ++round) {
            std::vector<std::uint8_t> bytes(std::size_t(length(rng)) + 1);
            for (std::uint8_t &b : bytes)
                b = std::uint8_t(byte(rng));
            bytes[0] = std::uint8_t(round % 7);
            if (!FloatBlockCodec::decode(bytes.data(), bytes.size(), int(many.size()), many.data()))
                for (float x : many)
                    QVERIFY(std::isnan(x));
        }
    }

    // A ring of 50 slots in blocks of 8: write 400 slots with gaps, jumps inside and across blocks, and
    // check every held slot against what was written, through value(), read() and decimation, at every
    // step (so hot, partly sealed and sealed blocks are all read).
    void sealedSlotsReadAsWritten()
    {
        RingSeries ring(50, 3, 1000, RingCompression{8, FloatBlockCodec::kFullMantissa});
        std::vector<std::vector<float>> written(600, std::vector<float>(3, kNan));
        std::mt19937 rng(5);
        std::uniform_int_distribution<int> step(1, 4);
        std::int64_t slot = 0;
        std::int64_t oldHead = kNoSlot;
        while (slot < 400) {
            ring.advanceTo(slot);
            float *row = ring.headRow();
            for (int c = 0; c < 3; ++c) {
                row[c] = c == 2 ? 5.0f : float(slot) * 0.25f + float(c);
                written[std::size_t(slot)][std::size_t(c)] = row[c];
            }
            if (slot % 7 == 0) { // a late round: its values are repeated over the slots it skipped
                const int repeated = ring.repeatHeadBack(oldHead);
                for (int k = 1; k <= repeated; ++k)
                    written[std::size_t(slot - k)] = written[std::size_t(slot)];
            }
            for (std::int64_t s = ring.firstSlot(); s <= ring.headSlot(); ++s)
                for (int c = 0; c < 3; ++c)
                    QVERIFY2(sameValue(ring.value(s, c), written[std::size_t(s)][std::size_t(c)]),
                             qPrintable(QStringLiteral("head %1, slot %2, column %3: %4 instead of %5")
                                            .arg(slot).arg(s).arg(c).arg(ring.value(s, c))
                                            .arg(written[std::size_t(s)][std::size_t(c)])));
            std::vector<float> range(std::size_t(ring.headSlot() - ring.firstSlot() + 1));
            ring.read(0, ring.firstSlot(), ring.headSlot(), range.data());
            for (std::size_t i = 0; i < range.size(); ++i)
                QVERIFY(sameValue(range[i], written[std::size_t(ring.firstSlot()) + i][0]));
            oldHead = slot;
            slot += slot == 200 ? 21 : step(rng); // one jump over two whole blocks
        }
        QVERIFY(ring.sealedSamples() > 0);
        QVERIFY(ring.sealedBytes() > 0);
        const QList<QPointF> points = decimateMinMax(ring.column(1), 0, 1'000'000, 1000);
        QVERIFY(!points.isEmpty());
        for (const QPointF &p : points)
            if (!std::isnan(p.y()))
                QCOMPARE(float(p.y()), written[std::size_t(p.x() / 1000)][1]);
    }

    void aRepeatFillsHotRowsOnly()
    {
        RingSeries ring(100, 1, 1000, RingCompression{4, 23});
        ring.advanceTo(0);
        ring.headRow()[0] = 1;
        ring.advanceTo(5);
        ring.headRow()[0] = 2;
        ring.advanceTo(10); // a late round into the next block: slots 6..9 span blocks 1 and 2, both hot
        ring.headRow()[0] = 3;
        QCOMPARE(ring.repeatHeadBack(5), 4);
        ring.advanceTo(30); // blocks 0..2 sealed now
        for (std::int64_t s = 6; s <= 10; ++s)
            QCOMPARE(ring.value(s, 0), 3.0f);
        QCOMPARE(ring.value(5, 0), 2.0f);
        QVERIFY(std::isnan(ring.value(4, 0)));
        // A jump over whole blocks seals the old head's block at once: a repeat reaches only the new
        // head's block, the rest stays a gap.
        ring.headRow()[0] = 4;
        ring.advanceTo(41);
        ring.headRow()[0] = 5;
        QCOMPARE(ring.repeatHeadBack(30), 1); // slot 40 only
        QVERIFY(std::isnan(ring.value(39, 0)));
        QCOMPARE(ring.value(40, 0), 5.0f);
        QCOMPARE(ring.value(30, 0), 4.0f);
    }

    void memoryGrowsWithTheHistoryHeld()
    {
        RingSeries ring(3600, 64, 1000, RingCompression{120, 12});
        QCOMPARE(ring.samplesHeld(), std::size_t(0));
        QCOMPARE(ring.sealedBytes(), std::size_t(0));
        for (std::int64_t s = 0; s < 3600; ++s) {
            ring.advanceTo(s);
            for (int c = 0; c < 64; ++c)
                ring.headRow()[c] = c < 32 ? float(s % 5) : 1000.0f + float((s * 7919 + c) % 101);
        }
        QCOMPARE(ring.samplesHeld(), std::size_t(3600 * 64));
        QCOMPARE(ring.sealedSamples(), std::size_t((3600 - 240) * 64)); // all but the two hot blocks
        const double perSample = double(ring.sealedBytes()) / double(ring.sealedSamples());
        QVERIFY2(perSample < 1.0, qPrintable(QString::number(perSample)));
        // The jump over the whole capacity drops the sealed history.
        ring.advanceTo(100'000);
        QCOMPARE(ring.sealedBytes(), std::size_t(0));
        QCOMPARE(ring.samplesHeld(), std::size_t(64));
    }
};

QTEST_GUILESS_MAIN(TestRingCompression)
#include "tst_ringcompression.moc"
