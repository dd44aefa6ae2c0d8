// SPDX-License-Identifier: MIT
#pragma once

#include <QTest>

#include <optional>

namespace pd::test {

// Calls `call` with a callback taking a T, then runs the event loop until the callback has been called
// or timeoutMs has passed: the answer, or nothing. For the console's asynchronous APIs that answer
// through a callback (ProxyClient, MembershipReconciler::reconcileNow, LoadProbe::loads).
template<typename T, typename Call> std::optional<T> awaitReply(Call call, int timeoutMs = 10000)
{
    std::optional<T> out;
    call([&out](const T &value) { out = value; });
    static_cast<void>(
        QTest::qWaitFor([&out] { return out.has_value(); }, timeoutMs)); // the caller checks what it waited for
    return out;
}

} // namespace pd::test
