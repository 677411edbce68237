// Device and pinned host memory: real host memory, registered with the
// simulator's registry (copies validate against it) and counted against the
// device's capacity.
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/enum_value.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/vmm_state.h"
#include "core/fault_plan.h"

using namespace acl;
using npusim::MemoryKind;

namespace {

constexpr size_t kDeviceAlign = 512;
constexpr size_t kAlign32 = 32;
constexpr size_t kHostAlign = 64;

bool valid_policy(int32_t policy) {
    const uint32_t p = static_cast<uint32_t>(policy);
    const uint32_t base = p & 0xFFu;
    const uint32_t flags = p & ~0xFFu;
    const uint32_t known_flags =
        ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;
    return base <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P && (flags & ~known_flags) == 0;
}

// The device a configured allocation goes to: the DEVICE_ID attribute if given, else the current device.
aclError device_from_config(const aclrtMallocConfig* cfg, npusim::Device*& device) {
    if (cfg != nullptr) {
        if (cfg->numAttrs > 0 && cfg->attrs == nullptr) return ACL_ERROR_INVALID_PARAM;
        int64_t chosen = -1;
        for (size_t i = 0; i < cfg->numAttrs; ++i) {
            switch (raw_value(cfg->attrs[i].attr)) {
                case ACL_RT_MEM_ATTR_RSV:
                case ACL_RT_MEM_ATTR_MODULE_ID: break;  // bookkeeping only
                case ACL_RT_MEM_ATTR_DEVICE_ID: chosen = cfg->attrs[i].value.deviceId; break;
                default: return ACL_ERROR_INVALID_PARAM;
            }
        }
        if (chosen >= 0) {
            if (const aclError rc = check_device_id(chosen); rc != ACL_SUCCESS) return rc;
            device = platform().device(chosen);
            return ACL_SUCCESS;
        }
    }
    return current_device(device);
}

aclError device_malloc(void** devPtr, size_t size, int32_t policy, size_t align,
                       const aclrtMallocConfig* cfg = nullptr) {
    if (devPtr == nullptr || size == 0 || !valid_policy(policy)) return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    if (const aclError rc = device_from_config(cfg, device); rc != ACL_SUCCESS) return rc;
    if (!device->reserve_memory(size)) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    void* p = platform().memory().allocate(size, align, device->id(), MemoryKind::Device);
    if (p == nullptr) {
        device->release_memory(size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *devPtr = p;
    return ACL_SUCCESS;
}

// Cache maintenance has nothing to do on coherent simulated memory; only the range is checked.
aclError check_cache_range(const void* ptr, size_t size) {
    if (ptr == nullptr || size == 0) return ACL_ERROR_INVALID_PARAM;
    npusim::Allocation a;
    if (!platform().memory().find(ptr, size, &a) || a.kind == MemoryKind::Reserved) return ACL_ERROR_RT_PARAM_INVALID;
    return ACL_SUCCESS;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMalloc", aclError, devPtr, size, policy);
    ACL_API_BEGIN(aclrtMalloc);
    return device_malloc(devPtr, size, raw_value(policy), kDeviceAlign);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMallocCached", aclError, devPtr, size, policy);
    ACL_API_BEGIN(aclrtMallocCached);
    return device_malloc(devPtr, size, raw_value(policy), kDeviceAlign);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    NPUSIM_FAULT_RETURN("aclrtMallocAlign32", aclError);
    ACL_API_BEGIN(aclrtMallocAlign32);
    return device_malloc(devPtr, size, raw_value(policy), kAlign32);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig* cfg) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMallocWithCfg", aclError, devPtr, size, policy, cfg);
    ACL_API_BEGIN(aclrtMallocWithCfg);
    return device_malloc(devPtr, size, raw_value(policy), kDeviceAlign, cfg);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig* cfg) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMallocForTaskScheduler", aclError, devPtr, size, policy, cfg);
    ACL_API_BEGIN(aclrtMallocForTaskScheduler);
    return device_malloc(devPtr, size, raw_value(policy), kDeviceAlign, cfg);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtFree", aclError, devPtr);
    ACL_API_BEGIN(aclrtFree);
    if (devPtr == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (is_vmm_mapping(devPtr)) return ACL_ERROR_RT_PARAM_INVALID;  // aclrtUnmapMem undoes a mapping
    npusim::Allocation a;
    if (!platform().memory().release(devPtr, MemoryKind::Device, &a)) return ACL_ERROR_RT_PARAM_INVALID;
    platform().device(a.device)->release_memory(a.size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMallocHost", aclError, hostPtr, size);
    ACL_API_BEGIN(aclrtMallocHost);
    if (hostPtr == nullptr || size == 0) return ACL_ERROR_INVALID_PARAM;
    // Pinned host memory belongs to no device; it is filed under the current one when there is one.
    const int32_t current = thread_state().device;
    void* p = platform().memory().allocate(size, kHostAlign, current < 0 ? 0 : uint32_t(current), MemoryKind::Host);
    if (p == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    *hostPtr = p;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtFreeHost", aclError, hostPtr);
    ACL_API_BEGIN(aclrtFreeHost);
    if (hostPtr == nullptr) return ACL_ERROR_INVALID_PARAM;
    return platform().memory().release(hostPtr, MemoryKind::Host) ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
    NPUSIM_FAULT_RETURN("aclrtGetMemInfo", aclError);
    ACL_API_BEGIN(aclrtGetMemInfo);
    if (free == nullptr || total == nullptr) return ACL_ERROR_INVALID_PARAM;
    const int32_t a = raw_value(attr);
    if (a < ACL_DDR_MEM || a > ACL_MEM_P2P_HUGE1G) return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    // One memory pool per device: every attribute (HBM, DDR, page-size variants) reports it.
    const uint64_t capacity = device->soc().memory_bytes;
    const uint64_t used = device->memory_in_use();
    *total = static_cast<size_t>(capacity);
    *free = static_cast<size_t>(used < capacity ? capacity - used : 0);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void* devPtr, size_t size) {
    NPUSIM_FAULT_RETURN("aclrtMemFlush", aclError);
    ACL_API_BEGIN(aclrtMemFlush);
    return check_cache_range(devPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void* devPtr, size_t size) {
    NPUSIM_FAULT_RETURN("aclrtMemInvalidate", aclError);
    ACL_API_BEGIN(aclrtMemInvalidate);
    return check_cache_range(devPtr, size);
}
