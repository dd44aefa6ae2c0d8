// SPDX-License-Identifier: MIT
// The strict JSON reader (duplicate keys refused) against nlohmann::json (std::map, n log n) on the same text, for
// objects of 10k to 160k keys: a proxy's reply or a profile must not freeze the GUI. Prints ms and the
// ratio per size; a linear reader keeps the ratio flat as the size grows.
#include "cluster/strictjson.h"

#include <QElapsedTimer>

#include <cstdio>

int main()
{
    std::printf("%8s %12s %12s %7s\n", "keys", "strict ms", "nlohmann ms", "ratio");
    for (int keys : {10000, 20000, 40000, 80000, 160000}) {
        QByteArray text = "{";
        for (int i = 0; i < keys; ++i)
            text += (i ? ",\"k" : "\"k") + QByteArray::number(i) + "\":" + QByteArray::number(i);
        text += '}';
        QElapsedTimer t;
        t.start();
        const pd::StrictJsonResult strict = pd::parseStrictJson(text);
        const double strictMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        const auto plain = nlohmann::json::parse(text.constData(), text.constData() + text.size());
        const double plainMs = double(t.nsecsElapsed()) / 1e6;
        if (!strict.ok || plain.size() != std::size_t(keys))
            return 1;
        std::printf("%8d %12.1f %12.1f %7.2f\n", keys, strictMs, plainMs, strictMs / plainMs);
    }
    return 0;
}
