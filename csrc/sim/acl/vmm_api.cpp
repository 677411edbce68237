// Virtual memory management: reserve an address range, create physical
// memory, map it into the range. Reservations are PROT_NONE anonymous
// mappings; physical memory is a memory file mapped MAP_SHARED|MAP_FIXED, so
// two mappings of one physical object really share their bytes.
//
// Shareable handles work within the process only: importing an id exported by
// another process returns ACL_ERROR_FEATURE_UNSUPPORTED.
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/enum_value.h"
#include "acl/handle_table.h"
#include "core/immortal.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/vmm_state.h"
#include "core/fault_plan.h"

using namespace acl;
using npusim::MemoryKind;

namespace {

HandleTable<PhysicalHandle>& physical_handles() {
    static npusim::Immortal<HandleTable<PhysicalHandle>> table(kPhysicalTag);
    return table.get();
}

size_t page_size() {
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

bool round_up(size_t value, size_t align, size_t& out) {
    if (value > SIZE_MAX - (align - 1)) return false;
    out = (value + align - 1) / align * align;
    return true;
}

bool is_power_of_two(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Restores the reservation's inaccessible placeholder over an unmapped range.
bool restore_placeholder(uintptr_t base, size_t size) {
    void* p = mmap(reinterpret_cast<void*>(base), size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    return p != MAP_FAILED;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                                    uint64_t flags) {
    NPUSIM_FAULT_RETURN("aclrtReserveMemAddress", aclError);
    ACL_API_BEGIN(aclrtReserveMemAddress);
    if (virPtr == nullptr || size == 0 || (alignment != 0 && !is_power_of_two(alignment)))
        return ACL_ERROR_INVALID_PARAM;
    const size_t page = page_size();
    const size_t align = alignment > page ? alignment : page;
    size_t length = 0, padded = 0;
    if (!round_up(size, page, length) || length > SIZE_MAX - align) return ACL_ERROR_INVALID_PARAM;
    padded = length + align - page;
    // Over-reserve, then trim to the requested alignment.
    void* raw = mmap(expectPtr, padded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t base = (start + align - 1) / align * align;
    if (base > start) munmap(raw, base - start);
    if (start + padded > base + length)
        munmap(reinterpret_cast<void*>(base + length), start + padded - (base + length));
    const int32_t current = thread_state().device;
    const uint32_t device = current < 0 ? 0 : uint32_t(current);
    {
        VmmState& s = vmm_state();
        std::lock_guard<std::mutex> lock(s.mutex);
        s.reservations[base] = Reservation{base, length, device};
        s.live_reservations.fetch_add(1, std::memory_order_release);
    }
    platform().memory().add(base, length, device, MemoryKind::Reserved);
    *virPtr = reinterpret_cast<void*>(base);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void* virPtr) {
    NPUSIM_FAULT_RETURN("aclrtReleaseMemAddress", aclError);
    ACL_API_BEGIN(aclrtReleaseMemAddress);
    if (virPtr == nullptr) return ACL_ERROR_INVALID_PARAM;
    const uintptr_t base = reinterpret_cast<uintptr_t>(virPtr);
    VmmState& s = vmm_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.reservations.find(base);
    if (it == s.reservations.end()) return ACL_ERROR_RT_PARAM_INVALID;
    for (const auto& entry : s.mappings) {
        if (entry.second.reservation == base) return ACL_ERROR_RT_PARAM_INVALID;  // unmap first
    }
    munmap(virPtr, it->second.size);
    platform().memory().remove(base);
    s.reservations.erase(it);
    s.live_reservations.fetch_sub(1, std::memory_order_release);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                                                 const aclrtPhysicalMemProp* prop, uint64_t flags) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMallocPhysical", aclError, handle, size, prop, flags);
    ACL_API_BEGIN(aclrtMallocPhysical);
    if (handle == nullptr || prop == nullptr || size == 0) return ACL_ERROR_INVALID_PARAM;
    if (raw_value(prop->allocationType) != ACL_MEM_ALLOCATION_TYPE_PINNED) return ACL_ERROR_INVALID_PARAM;
    size_t file_size = 0;
    if (!round_up(size, page_size(), file_size)) return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    bool counted = false;
    switch (raw_value(prop->location.type)) {
        case ACL_MEM_LOCATION_TYPE_DEVICE:
            if (const aclError rc = check_device_id(prop->location.id); rc != ACL_SUCCESS) return rc;
            device = platform().device(prop->location.id);
            if (!device->reserve_memory(size)) return ACL_ERROR_RT_MEMORY_ALLOCATION;
            counted = true;
            break;
        case ACL_MEM_LOCATION_TYPE_HOST: break;
        default: return ACL_ERROR_INVALID_PARAM;
    }
    const uint32_t device_id = device ? device->id() : 0;
    UniqueFd fd(memfd_create("npusim-physical", MFD_CLOEXEC));
    if (fd.get() < 0 || ftruncate(fd.get(), static_cast<off_t>(file_size)) != 0) {
        if (counted) device->release_memory(size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    auto h = std::make_unique<PhysicalHandle>();
    h->memory = std::make_shared<PhysicalMemory>(std::move(fd), size, device_id, counted);
    void* value = physical_handles().insert(std::move(h));
    if (value == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    *handle = value;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtFreePhysical", aclError, handle);
    ACL_API_BEGIN(aclrtFreePhysical);
    if (handle == nullptr) return ACL_ERROR_INVALID_PARAM;
    // Mappings keep the memory alive until they are unmapped.
    return physical_handles().erase(handle) ? ACL_SUCCESS : ACL_ERROR_INVALID_RESOURCE_HANDLE;
}

ACL_FUNC_VISIBILITY aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags) {
    NPUSIM_FAULT_RETURN("aclrtMapMem", aclError);
    ACL_API_BEGIN(aclrtMapMem);
    if (virPtr == nullptr || size == 0 || handle == nullptr) return ACL_ERROR_INVALID_PARAM;
    const PhysicalHandle* h = physical_handles().find(handle);
    if (h == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    const std::shared_ptr<PhysicalMemory> memory = h->memory;
    const uintptr_t base = reinterpret_cast<uintptr_t>(virPtr);
    const size_t page = page_size();
    if (base % page != 0 || offset % page != 0) return ACL_ERROR_INVALID_PARAM;
    if (offset > memory->size || size > memory->size - offset) return ACL_ERROR_INVALID_PARAM;
    VmmState& s = vmm_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    // The range must lie inside one reservation and overlap no other mapping.
    auto r = s.reservations.upper_bound(base);
    if (r == s.reservations.begin()) return ACL_ERROR_RT_PARAM_INVALID;
    --r;
    const Reservation& res = r->second;
    if (base - res.base > res.size || size > res.size - (base - res.base)) return ACL_ERROR_RT_PARAM_INVALID;
    for (const auto& [mbase, m] : s.mappings) {
        if (mbase < base + size && base < mbase + m.size) return ACL_ERROR_RT_PARAM_INVALID;
    }
    void* p = mmap(virPtr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memory->fd.get(),
                   static_cast<off_t>(offset));
    if (p == MAP_FAILED) {
        restore_placeholder(base, size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    s.mappings[base] = Mapping{base, size, res.base, memory};
    // Registered as device memory of the physical object's device, so copies into the range validate.
    platform().memory().add(base, size, memory->device, MemoryKind::Device);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void* virPtr) {
    NPUSIM_FAULT_RETURN("aclrtUnmapMem", aclError);
    ACL_API_BEGIN(aclrtUnmapMem);
    if (virPtr == nullptr) return ACL_ERROR_INVALID_PARAM;
    const uintptr_t base = reinterpret_cast<uintptr_t>(virPtr);
    VmmState& s = vmm_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.mappings.find(base);
    if (it == s.mappings.end()) return ACL_ERROR_RT_PARAM_INVALID;
    const Mapping& m = it->second;
    if (!restore_placeholder(base, m.size)) return ACL_ERROR_RT_INTERNAL_ERROR;
    platform().memory().remove(base);
    // A mapping at the reservation's base replaced the reservation's registry entry; put it back.
    if (base == m.reservation) {
        const Reservation& res = s.reservations.at(m.reservation);
        platform().memory().add(res.base, res.size, res.device, MemoryKind::Reserved);
    }
    s.mappings.erase(it);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t* shareableHandle) {
    NPUSIM_FAULT_RETURN("aclrtMemExportToShareableHandle", aclError);
    ACL_API_BEGIN(aclrtMemExportToShareableHandle);
    if (handle == nullptr || shareableHandle == nullptr || raw_value(handleType) != ACL_MEM_HANDLE_TYPE_NONE)
        return ACL_ERROR_INVALID_PARAM;
    const PhysicalHandle* h = physical_handles().find(handle);
    if (h == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    VmmState& s = vmm_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (h->memory->shareable_id == 0) {
        // The exporting process's id in the high half tells an import whether the id is ours.
        const uint64_t id = (uint64_t(uint32_t(getpid())) << 32) | s.next_shareable++;
        h->memory->shareable_id = id;
        s.shareables[id] = Shareable{h->memory, {}};
    }
    *shareableHandle = h->memory->shareable_id;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle* handle) {
    NPUSIM_FAULT_RETURN("aclrtMemImportFromShareableHandle", aclError);
    ACL_API_BEGIN(aclrtMemImportFromShareableHandle);
    if (handle == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    std::shared_ptr<PhysicalMemory> memory;
    {
        VmmState& s = vmm_state();
        std::lock_guard<std::mutex> lock(s.mutex);
        auto it = s.shareables.find(shareableHandle);
        if (it == s.shareables.end()) {
            // Memory of another process cannot be reached from this one.
            return (shareableHandle >> 32) == uint32_t(getpid()) ? ACL_ERROR_RT_PARAM_INVALID
                                                                 : ACL_ERROR_FEATURE_UNSUPPORTED;
        }
        memory = it->second.memory.lock();
    }
    if (!memory) return ACL_ERROR_RT_PARAM_INVALID;  // freed since it was exported
    auto h = std::make_unique<PhysicalHandle>();
    h->memory = std::move(memory);
    void* value = physical_handles().insert(std::move(h));
    if (value == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    *handle = value;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
    NPUSIM_FAULT_RETURN("aclrtMemSetPidToShareableHandle", aclError);
    ACL_API_BEGIN(aclrtMemSetPidToShareableHandle);
    if (pid == nullptr || pidNum == 0) return ACL_ERROR_INVALID_PARAM;
    VmmState& s = vmm_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.shareables.find(shareableHandle);
    if (it == s.shareables.end()) return ACL_ERROR_RT_PARAM_INVALID;
    it->second.pids.assign(pid, pid + pidNum);
    return ACL_SUCCESS;
}
