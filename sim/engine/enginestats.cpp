// SPDX-License-Identifier: MIT
#include "enginestats.h"

namespace pd::sim {

EngineStats::EngineStats(int maxModelLen, int speculativeTokens)
    : specAcceptedPerPos(std::size_t(std::max(0, speculativeTokens)), 0.0),
      requestPromptTokens(Histogram::buckets125(maxModelLen)),
      requestGenerationTokens(Histogram::buckets125(maxModelLen)),
      iterationTokens(Histogram::iterationTokenBuckets()),
      requestMaxGenTokens(Histogram::buckets125(maxModelLen)),
      requestParamsN(Histogram::nBuckets()),
      requestParamsMaxTokens(Histogram::buckets125(maxModelLen)),
      ttft(Histogram::ttftBuckets()),
      tpot(Histogram::tpotBuckets()),
      requestTpot(Histogram::tpotBuckets()),
      e2e(Histogram::requestLatencyBuckets()),
      queueTime(Histogram::requestLatencyBuckets()),
      inferenceTime(Histogram::requestLatencyBuckets()),
      prefillTime(Histogram::requestLatencyBuckets()),
      decodeTime(Histogram::requestLatencyBuckets()),
      prefillKvComputed(Histogram::buckets125(maxModelLen)),
      nixlXferTime(Histogram::nixlXferBuckets()),
      nixlPostTime(Histogram::nixlPostBuckets()),
      nixlBytes(Histogram::nixlBytesBuckets()),
      nixlDescriptors(Histogram::nixlDescriptorBuckets())
{
}

} // namespace pd::sim
