#include "acl/vmm_state.h"

#include <algorithm>
#include <cstdint>

#include "core/immortal.h"
#include "acl/runtime_state.h"

namespace acl {

PhysicalMemory::~PhysicalMemory() {
    if (counted) platform().device(device)->release_memory(size);
}

VmmState& vmm_state() {
    static npusim::Immortal<VmmState> state;
    return state.get();
}

bool is_vmm_mapping(const void* ptr) {
    VmmState& s = vmm_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.mappings.count(reinterpret_cast<uintptr_t>(ptr)) != 0;
}

bool touches_unmapped_reservation(const void* ptr, size_t len) {
    VmmState& s = vmm_state();
    if (s.live_reservations.load(std::memory_order_acquire) == 0 || len == 0) return false;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(ptr);
    const uintptr_t hi = len > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + len;
    std::lock_guard<std::mutex> lock(s.mutex);
    for (const auto& [base, r] : s.reservations) {
        uintptr_t a = std::max(lo, base);
        const uintptr_t b = std::min(hi, base + r.size);
        // Walk the overlap [a, b) through the mappings (ordered by base); any gap is unmapped.
        for (auto m = s.mappings.begin(); a < b && m != s.mappings.end(); ++m) {
            if (m->first + m->second.size <= a) continue;
            if (m->first > a) return true;
            a = m->first + m->second.size;
        }
        if (a < b) return true;
    }
    return false;
}

}  // namespace acl
