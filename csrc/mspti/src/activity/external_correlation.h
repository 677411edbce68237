// External correlation: per-thread stacks of client ids, one stack per
// msptiExternalCorrelationKind. Each new correlation id allocated on a thread
// is linked to the top of each non-empty stack of that thread by an
// EXTERNAL_CORRELATION record.
#pragma once

#include <cstdint>

#include "mspti/mspti_activity.h"

namespace mspti::activity {

constexpr bool IsValidExternalKind(int64_t kind) {
    return kind > MSPTI_EXTERNAL_CORRELATION_KIND_INVALID && kind < MSPTI_EXTERNAL_CORRELATION_KIND_SIZE;
}

msptiResult PushExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t id);
msptiResult PopExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t* last_id);

// Emits the EXTERNAL_CORRELATION records of a new correlation id of the calling thread.
[[gnu::noinline]] void ReportExternalCorrelation(uint64_t correlation_id);

}  // namespace mspti::activity
