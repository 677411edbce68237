// The registry of activity kinds: which kinds exist, their record sizes, which
// are switched on, and what each needs from the environment.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "mspti/mspti_activity.h"

namespace mspti::activity {

constexpr uint32_t kKindSlots = MSPTI_ACTIVITY_KIND_COUNT;

constexpr bool IsValidKind(int64_t kind) { return kind > MSPTI_ACTIVITY_KIND_INVALID && kind < MSPTI_ACTIVITY_KIND_COUNT; }

// The size of a record of `kind` in a buffer, 0 for an unknown kind (inline: a client's record walk
// asks it twice per record).
constexpr size_t RecordSize(int64_t kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_MARKER: return sizeof(msptiActivityMarker);
        case MSPTI_ACTIVITY_KIND_KERNEL: return sizeof(msptiActivityKernel);
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: return sizeof(msptiActivityApi);
        case MSPTI_ACTIVITY_KIND_HCCL: return sizeof(msptiActivityHccl);
        case MSPTI_ACTIVITY_KIND_MEMORY: return sizeof(msptiActivityMemory);
        case MSPTI_ACTIVITY_KIND_MEMSET: return sizeof(msptiActivityMemset);
        case MSPTI_ACTIVITY_KIND_MEMCPY: return sizeof(msptiActivityMemcpy);
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return sizeof(msptiActivityExternalCorrelation);
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: return sizeof(msptiActivityCommunication);
        case MSPTI_ACTIVITY_KIND_OVERHEAD: return sizeof(msptiActivityOverhead);
        default: return 0;
    }
}

// The largest record of any kind: what a buffer must at least hold to be useful.
constexpr size_t kMaxRecordSize = sizeof(msptiActivityCommunication);

// Kinds whose records come only from interposed aclrt*/Hccl* functions.
constexpr bool NeedsInterposition(msptiActivityKind kind) {
    return kind == MSPTI_ACTIVITY_KIND_HCCL || kind == MSPTI_ACTIVITY_KIND_MEMORY ||
           kind == MSPTI_ACTIVITY_KIND_MEMSET || kind == MSPTI_ACTIVITY_KIND_MEMCPY;
}

class KindSwitches {
public:
    bool IsEnabled(int64_t kind) const {
        return IsValidKind(kind) && enabled_[static_cast<size_t>(kind)].load(std::memory_order_acquire);
    }
    void Set(msptiActivityKind kind, bool on) { enabled_[static_cast<size_t>(kind)].store(on, std::memory_order_release); }

private:
    std::atomic<bool> enabled_[kKindSlots] = {};
};

// Constant-initialised and trivially destructible: usable at any time, with no initialisation guard.
inline KindSwitches& Kinds() {
    static KindSwitches switches;
    return switches;
}

inline bool Enabled(msptiActivityKind kind) { return Kinds().IsEnabled(kind); }

}  // namespace mspti::activity
