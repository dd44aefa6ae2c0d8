// SPDX-License-Identifier: MIT
#pragma once

#include "promformat.h"

#include <QByteArray>
#include <QByteArrayView>

#include <algorithm>
#include <cstring>

// Appends to a QByteArray through a raw pointer: room for the expected size is made once (a reused
// buffer already has it: no allocation), then every piece is one memcpy, without QByteArray's
// per-append bookkeeping. The array has its final size again when the writer goes.
namespace pd::sim {

class ByteWriter final {
public:
    ByteWriter(QByteArray &out, qsizetype expected)
        : m_out(out)
        , m_pos(out.size())
    {
        grow(expected);
    }
    ~ByteWriter() { m_out.resize(m_pos); }
    ByteWriter(const ByteWriter &) = delete;
    ByteWriter &operator=(const ByteWriter &) = delete;

    void append(const char *data, qsizetype size)
    {
        if (m_pos + size > m_end)
            grow(size);
        std::memcpy(m_data + m_pos, data, std::size_t(size));
        m_pos += size;
    }
    void append(QByteArrayView text) { append(text.data(), text.size()); }
    void append(char c)
    {
        if (m_pos + 1 > m_end)
            grow(1);
        m_data[m_pos++] = c;
    }
    // A number as prometheus_client prints it (promformat.h).
    void number(double value)
    {
        if (m_pos + kMaxPromNumber > m_end)
            grow(kMaxPromNumber);
        m_pos += formatPromNumber(value, m_data + m_pos);
    }

private:
    void grow(qsizetype more)
    {
        m_end = m_pos + std::max(more, m_pos / 2);
        m_out.resize(m_end); // the new bytes are not initialised; a reused buffer keeps its memory
        m_data = m_out.data();
    }

    QByteArray &m_out;
    char *m_data = nullptr;
    qsizetype m_pos = 0;
    qsizetype m_end = 0;
};

} // namespace pd::sim
