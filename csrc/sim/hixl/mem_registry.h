// The memory an engine has registered for transfers. Regions never overlap, so
// a range is valid when it lies inside the one region that starts at or below it.
//
// Transfers hold the registry's lock (shared) while they touch the memory, so a
// region cannot be deregistered under a running copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "hixl/hixl_types.h"

namespace hixl {

class MemRegistry {
public:
    Status add(const MemDesc& desc, MemType type, MemHandle& handle);
    Status remove(MemHandle handle);
    void clear();

    // Whether [addr, addr + len) lies in one registered region. The caller holds mutex() (shared or exclusive).
    bool covers(uintptr_t addr, size_t len) const;
    // Whether every descriptor's local range lies in host memory (takes the lock itself).
    bool all_local_host(const std::vector<TransferOpDesc>& descs) const;

    std::shared_mutex& mutex() const { return mutex_; }

private:
    struct Region {
        uintptr_t base = 0;
        size_t len = 0;
        MemType type = MEM_HOST;
    };

    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, Region> regions_;          // by base address
    std::unordered_map<uintptr_t, uintptr_t> handles_;  // handle value -> base
};

}  // namespace hixl
