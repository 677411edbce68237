// The names CANN registers with msPTI:
//  - type info (profapi callback 11): (level, type id) -> name, e.g. the task
//    type names ("KERNEL_AICORE", ...) and the API names of each report level;
//  - hash info (profapi callback 12): CANN hands msPTI a string and gets an id
//    back that it later reports instead of the string (kernel names, node
//    names, communicator names). The id is msPTI's own hash of the string; when
//    two strings collide, the later one gets the next free id, so an id always
//    names exactly one string.
// Lookups are lock-free (they run inside CANN's reporting calls). Type names of
// the levels reported per launch (runtime, ACL, node) with small type ids are
// also kept in direct arrays, so the common lookup is one load.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "common/intern_table.h"
#include "seam/profapi.h"

namespace mspti::seam {

class NameCache {
public:
    static NameCache& Instance();
    // The cache if made already, else nullptr (for paths that must not call out).
    static const NameCache* IfCreated();

    void RegisterType(uint16_t level, uint32_t type_id, std::string_view name);
    // nullptr when CANN has not registered the type.
    const char* TypeName(uint16_t level, uint32_t type_id) const {
        const int row = FastRow(level);
        if (row >= 0 && type_id < kFastTypes) return fast_[row][type_id].load(std::memory_order_acquire);
        return SlowTypeName(level, type_id);
    }

    // Whether the runtime's task type `type_id` (level 5000) is a kernel's: its registered name starts
    // with "KERNEL" (decided once, at registration; this runs for every task track).
    bool IsKernelTask(uint32_t type_id) const {
        if (type_id < kFastTypes) return kernel_[type_id].load(std::memory_order_acquire);
        return StartsWithKernel(SlowTypeName(MSPROF_REPORT_RUNTIME_LEVEL, type_id));
    }
    static bool StartsWithKernel(const char* name);

    // The same two lookups from the direct arrays alone (no call): nullptr or false also for a type
    // id beyond them, which the callers then look up in full.
    const char* FastTypeName(uint16_t level, uint32_t type_id) const {
        const int row = FastRow(level);
        return row >= 0 && type_id < kFastTypes ? fast_[row][type_id].load(std::memory_order_acquire) : nullptr;
    }
    bool FastKernelTask(uint32_t type_id) const {
        return type_id < kFastTypes && kernel_[type_id].load(std::memory_order_acquire);
    }

    // Whether CANN registered any type name of `level` (one of the levels with a fast row).
    bool HasTypes(uint16_t level) const {
        const int row = FastRow(level);
        return row >= 0 && registered_[row].load(std::memory_order_acquire) != 0;
    }

    uint64_t HashId(std::string_view text);
    // nullptr for an id msPTI did not hand out.
    const char* HashText(uint64_t id) const {
        const InternTable::Entry* e = recent_ids_[id & (kRecentIds - 1)].load(std::memory_order_acquire);
        return e != nullptr && e->key == id ? e->text.c_str() : SlowHashText(id);
    }

    NameCache() = default;
    NameCache(const NameCache&) = delete;
    NameCache& operator=(const NameCache&) = delete;

private:
    static constexpr uint32_t kFastTypes = 1024;
    static constexpr int kFastLevels = 3;
    // The row of the direct array for a level, -1 for the levels looked up in the table.
    static constexpr int FastRow(uint16_t level) {
        switch (level) {
            case MSPROF_REPORT_RUNTIME_LEVEL: return 0;
            case MSPROF_REPORT_ACL_LEVEL: return 1;
            case MSPROF_REPORT_NODE_LEVEL: return 2;
            default: return -1;
        }
    }
    const char* SlowTypeName(uint16_t level, uint32_t type_id) const;
    const char* SlowHashText(uint64_t id) const;

    // A direct-mapped cache of hash ids in front of by_id_ (ids are hashes, so their low bits spread).
    static constexpr uint64_t kRecentIds = 1024;
    mutable std::atomic<const InternTable::Entry*> recent_ids_[kRecentIds] = {};

    // Entries point at the intern table's strings, which live as long as the process.
    std::atomic<const char*> fast_[kFastLevels][kFastTypes] = {};
    std::atomic<uint32_t> registered_[kFastLevels] = {};
    std::atomic<bool> kernel_[kFastTypes] =
        {};  // IsKernelTask of the runtime level's small type ids  // type names registered per fast row
    InternTable types_{12};
    InternTable by_id_{14};
    InternTable by_text_{14};
    std::mutex assign_mutex_;
};

}  // namespace mspti::seam
