// SPDX-License-Identifier: MIT
#include "expositionlayout.h"

#include <QHash>

#include <mutex>

namespace pd::sim {

std::shared_ptr<const ExpositionLayout> ExpositionLayout::shared(QByteArray text, std::vector<qsizetype> valueAt)
{
    // The layouts in use, by a hash of their text; an entry goes once no engine holds it.
    static std::mutex mutex;
    static std::vector<std::pair<size_t, std::weak_ptr<const ExpositionLayout>>> held;
    const size_t hash = qHash(text);
    const std::lock_guard lock(mutex);
    std::erase_if(held, [](const auto &entry) { return entry.second.expired(); });
    for (const auto &[h, weak] : held) {
        if (h != hash)
            continue;
        if (auto layout = weak.lock(); layout && layout->text == text && layout->valueAt == valueAt)
            return layout;
    }
    auto layout = std::make_shared<const ExpositionLayout>(ExpositionLayout { std::move(text), std::move(valueAt) });
    held.emplace_back(hash, layout);
    return layout;
}

} // namespace pd::sim
