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

// The size of a record of `kind` in a buffer, 0 for an unknown kind.
size_t RecordSize(int64_t kind);

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

KindSwitches& Kinds();

inline bool Enabled(msptiActivityKind kind) { return Kinds().IsEnabled(kind); }

}  // namespace mspti::activity
