// Counts records that were produced but could not be delivered, per kind and
// reason, so that "produced = delivered + dropped" always holds and nothing is
// lost silently (exposed through msptiActivityGetDroppedRecords and
// msptiActivityGetDroppedRecordsByReason, mspti_ext.h).
#pragma once

#include <atomic>
#include <cstdint>

#include "activity/kinds.h"
#include "mspti/mspti_ext.h"

namespace mspti::activity {

constexpr bool IsValidDropReason(int64_t reason) {
    return reason > MSPTI_DROP_REASON_ANY && reason < MSPTI_DROP_REASON_COUNT;
}

class DropCounter {
public:
    void Add(int64_t kind, msptiDropReason reason, uint64_t n = 1) {
        const size_t slot = IsValidKind(kind) ? static_cast<size_t>(kind) : 0;
        counts_[slot][static_cast<size_t>(reason)].fetch_add(n, std::memory_order_relaxed);
    }
    // A forked child's counts start at zero: the parent's drops are the parent's (fork_handlers.cpp).
    void ResetAfterFork() {
        for (auto& kind : counts_) {
            for (auto& c : kind) c.store(0, std::memory_order_relaxed);
        }
    }
    // kind 0 (INVALID) gives every kind, reason 0 (ANY) every reason; both must be valid or 0.
    uint64_t Get(int64_t kind, int64_t reason = MSPTI_DROP_REASON_ANY) const {
        uint64_t total = 0;
        for (size_t k = 0; k < kKindSlots; ++k) {
            if (kind != MSPTI_ACTIVITY_KIND_INVALID && static_cast<int64_t>(k) != kind) continue;
            for (size_t r = 1; r < kReasonSlots; ++r) {
                if (reason == MSPTI_DROP_REASON_ANY || static_cast<int64_t>(r) == reason) {
                    total += counts_[k][r].load(std::memory_order_relaxed);
                }
            }
        }
        return total;
    }

private:
    static constexpr size_t kReasonSlots = MSPTI_DROP_REASON_COUNT;
    std::atomic<uint64_t> counts_[kKindSlots][kReasonSlots] = {};
};

DropCounter& Drops();

}  // namespace mspti::activity
