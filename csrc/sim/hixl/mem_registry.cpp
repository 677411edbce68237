#include "mem_registry.h"

#include <atomic>
#include <iterator>
#include <mutex>

#include "core/log.h"
#include "core/memory.h"
#include "core/platform.h"

namespace hixl {

namespace {

// Handles are unique in the process, so one engine's handle never names another engine's region.
std::atomic<uintptr_t> g_next_handle{0x4d000001};

bool range_ok(uintptr_t addr, size_t len) { return addr != 0 && len != 0 && addr + len > addr; }

// Device memory must come from the simulated runtime (aclrtMalloc); host memory cannot be
// checked in general, but it must not be device memory.
bool backing_ok(const MemDesc& desc, MemType type) {
    npusim::Allocation a;
    const bool known =
        npusim::Platform::instance().memory().find(reinterpret_cast<const void*>(desc.addr), desc.len, &a);
    if (type == MEM_DEVICE) return known && a.kind == npusim::MemoryKind::Device;
    return !known || a.kind != npusim::MemoryKind::Device;
}

}  // namespace

Status MemRegistry::add(const MemDesc& desc, MemType type, MemHandle& handle) {
    if ((type != MEM_DEVICE && type != MEM_HOST) || !range_ok(desc.addr, desc.len)) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL RegisterMem: invalid memory (addr 0x%zx, len %zu, type %d)",
                            static_cast<size_t>(desc.addr), desc.len, static_cast<int>(type));
        return PARAM_INVALID;
    }
    if (!backing_ok(desc, type)) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL RegisterMem: [0x%zx, +%zu) is not %s memory",
                            static_cast<size_t>(desc.addr), desc.len, type == MEM_DEVICE ? "device" : "host");
        return PARAM_INVALID;
    }
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto next = regions_.lower_bound(desc.addr);
    const bool overlaps_next = next != regions_.end() && next->first < desc.addr + desc.len;
    const bool overlaps_prev =
        next != regions_.begin() && std::prev(next)->first + std::prev(next)->second.len > desc.addr;
    if (overlaps_next || overlaps_prev) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL RegisterMem: [0x%zx, +%zu) overlaps registered memory",
                            static_cast<size_t>(desc.addr), desc.len);
        return PARAM_INVALID;
    }
    regions_.emplace(desc.addr, Region{desc.addr, desc.len, type});
    const uintptr_t value = g_next_handle.fetch_add(1, std::memory_order_relaxed);
    handles_.emplace(value, desc.addr);
    handle = reinterpret_cast<MemHandle>(value);
    return SUCCESS;
}

Status MemRegistry::remove(MemHandle handle) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = handles_.find(reinterpret_cast<uintptr_t>(handle));
    if (it == handles_.end()) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL DeregisterMem: unknown handle %p", handle);
        return PARAM_INVALID;
    }
    regions_.erase(it->second);
    handles_.erase(it);
    return SUCCESS;
}

void MemRegistry::clear() {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    regions_.clear();
    handles_.clear();
}

bool MemRegistry::covers(uintptr_t addr, size_t len) const {
    if (!range_ok(addr, len)) return false;
    auto it = regions_.upper_bound(addr);
    if (it == regions_.begin()) return false;
    const Region& r = std::prev(it)->second;
    return addr - r.base <= r.len && len <= r.len - (addr - r.base);
}

bool MemRegistry::all_local_host(const std::vector<TransferOpDesc>& descs) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    for (const TransferOpDesc& d : descs) {
        auto it = regions_.upper_bound(d.local_addr);
        if (it == regions_.begin() || std::prev(it)->second.type != MEM_HOST) return false;
    }
    return !descs.empty();
}

}  // namespace hixl
