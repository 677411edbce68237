#include "markers/range_table.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/hash.h"
#include "common/no_destructor.h"

namespace mspti::markers {
namespace {

// Open ranges live in a fixed open-addressing table claimed with atomics, so starting and ending
// a range neither allocates nor takes a lock shared between threads. Range ids are unique and
// never reused, which keeps reuse of freed slots simple. Only when more ranges are open at once
// than the table holds do the excess go to a locked map.
class RangeTable {
public:
    RangeTable() : slots_(new Slot[kSlots]) {}

    void Add(uint64_t id, const OpenRange& range) {
        uint32_t i = static_cast<uint32_t>(MixKey(id)) & kMask;
        for (uint32_t probes = 0; probes < kMaxProbes; ++probes, i = (i + 1) & kMask) {
            Slot& s = slots_[i];
            uint64_t state = s.id.load(std::memory_order_acquire);
            if (state != kEmpty && state != kFree) continue;
            if (!s.id.compare_exchange_strong(state, kBusy, std::memory_order_acq_rel)) continue;
            s.range = range;
            s.id.store(id, std::memory_order_release);
            return;
        }
        std::lock_guard<std::mutex> lock(overflow_mutex_);
        overflow_[id] = range;
        overflow_used_.store(true, std::memory_order_release);
    }

    bool Take(uint64_t id, OpenRange* range) {
        uint32_t i = static_cast<uint32_t>(MixKey(id)) & kMask;
        for (uint32_t probes = 0; probes < kMaxProbes; ++probes, i = (i + 1) & kMask) {
            Slot& s = slots_[i];
            uint64_t state = s.id.load(std::memory_order_acquire);
            if (state == kEmpty) break;
            if (state != id) continue;
            // Claim the slot first so that two ends of one range cannot both take it.
            if (!s.id.compare_exchange_strong(state, kBusy, std::memory_order_acq_rel)) return false;
            *range = s.range;
            s.id.store(kFree, std::memory_order_release);
            return true;
        }
        if (!overflow_used_.load(std::memory_order_acquire)) return false;
        std::lock_guard<std::mutex> lock(overflow_mutex_);
        auto it = overflow_.find(id);
        if (it == overflow_.end()) return false;
        *range = it->second;
        overflow_.erase(it);
        return true;
    }

private:
    // Slot states besides a range id (ids start at 1 and stay far below these).
    static constexpr uint64_t kEmpty = 0;             // never used: ends a probe sequence
    static constexpr uint64_t kFree = UINT64_MAX;     // used before, free again
    static constexpr uint64_t kBusy = UINT64_MAX - 1; // being written or read
    static constexpr uint32_t kSlots = 1U << 16;
    static constexpr uint32_t kMask = kSlots - 1;
    static constexpr uint32_t kMaxProbes = 256;

    struct Slot {
        std::atomic<uint64_t> id{kEmpty};
        OpenRange range{};
    };

    std::unique_ptr<Slot[]> slots_;
    std::atomic<bool> overflow_used_{false};
    std::mutex overflow_mutex_;
    std::unordered_map<uint64_t, OpenRange> overflow_;
};

RangeTable& Table() {
    static NoDestructor<RangeTable> table;
    return table.get();
}

}  // namespace

void AddRange(uint64_t id, const OpenRange& range) { Table().Add(id, range); }

bool TakeRange(uint64_t id, OpenRange* range) { return Table().Take(id, range); }

}  // namespace mspti::markers
