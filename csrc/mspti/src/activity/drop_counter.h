// Counts records that were produced but could not be delivered, per kind, so
// that "produced = delivered + dropped" always holds and nothing is lost
// silently (exposed through msptiActivityGetDroppedRecords).
#pragma once

#include <atomic>
#include <cstdint>

#include "activity/kinds.h"

namespace mspti::activity {

class DropCounter {
public:
    void Add(int64_t kind, uint64_t n = 1) {
        const size_t slot = IsValidKind(kind) ? static_cast<size_t>(kind) : 0;
        counts_[slot].fetch_add(n, std::memory_order_relaxed);
    }
    // A forked child's counts start at zero: the parent's drops are the parent's (fork_handlers.cpp).
    void ResetAfterFork() {
        for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
    }
    // kind 0 (INVALID) gives the total.
    uint64_t Get(int64_t kind) const {
        if (kind == MSPTI_ACTIVITY_KIND_INVALID) {
            uint64_t total = 0;
            for (const auto& c : counts_) total += c.load(std::memory_order_relaxed);
            return total;
        }
        return counts_[static_cast<size_t>(kind)].load(std::memory_order_relaxed);
    }

private:
    std::atomic<uint64_t> counts_[kKindSlots] = {};
};

DropCounter& Drops();

}  // namespace mspti::activity
