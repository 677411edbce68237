// Interposed aclrt* memory management functions. Device allocations and
// releases (aclrtMalloc*, aclrtFree, address reservations) produce MEMORY
// records; host memory, cache maintenance, physical handles and sharing only
// get callbacks and a correlation id.
#include "activity/kinds.h"
#include "interpose/memory_reporter.h"
#include "interpose/wrapper.h"
#include "mspti/mspti_cbid.h"
#include "mspti/mspti_ext.h"

namespace {

MSPTI_REAL_ACL(aclrtMalloc);
MSPTI_REAL_ACL(aclrtMallocWithCfg);
MSPTI_REAL_ACL(aclrtMallocForTaskScheduler);
MSPTI_REAL_ACL(aclrtMallocCached);
MSPTI_REAL_ACL(aclrtFree);
MSPTI_REAL_ACL(aclrtMallocHost);
MSPTI_REAL_ACL(aclrtFreeHost);
MSPTI_REAL_ACL(aclrtMemFlush);
MSPTI_REAL_ACL(aclrtMemInvalidate);
MSPTI_REAL_ACL(aclrtGetMemInfo);
MSPTI_REAL_ACL(aclrtReserveMemAddress);
MSPTI_REAL_ACL(aclrtReleaseMemAddress);
MSPTI_REAL_ACL(aclrtMallocPhysical);
MSPTI_REAL_ACL(aclrtFreePhysical);
MSPTI_REAL_ACL(aclrtMemExportToShareableHandle);
MSPTI_REAL_ACL(aclrtMemImportFromShareableHandle);
MSPTI_REAL_ACL(aclrtMemSetPidToShareableHandle);

using mspti::interpose::CallTimes;
using mspti::interpose::InterceptRuntime;
using mspti::interpose::NoRecord;
namespace memory = mspti::interpose::memory;

bool MemoryOn() { return mspti::activity::Enabled(MSPTI_ACTIVITY_KIND_MEMORY); }

// The MEMORY record of an allocation that stores its address through `ptr`.
auto Allocation(void** ptr, size_t size) {
    return [ptr, size](aclError ret, uint64_t correlation_id, const CallTimes& t) {
        if (ret == ACL_SUCCESS && ptr != nullptr) memory::ReportAllocation(correlation_id, t.start, t.end, *ptr, size);
    };
}

auto Release(const void* ptr) {
    return [ptr](aclError ret, uint64_t correlation_id, const CallTimes& t) {
        if (ret == ACL_SUCCESS) memory::ReportRelease(correlation_id, t.start, t.end, ptr);
    };
}

}  // namespace

// The interposed definitions are the library's exported interface: exported here, not through the
// header's ACL_FUNC_VISIBILITY, which CANN's headers leave empty outside CANN's own build.
#pragma GCC visibility push(default)
extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    const msptiRuntimeMallocParams params{devPtr, size, policy};
    return InterceptRuntime(real_aclrtMalloc, MSPTI_CBID_RUNTIME_MALLOC, "aclrtMalloc", params, MemoryOn(),
                            Allocation(devPtr, size), devPtr, size, policy);
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
    const msptiRuntimeMallocWithCfgParams params{devPtr, size, policy, cfg};
    return InterceptRuntime(real_aclrtMallocWithCfg, MSPTI_CBID_RUNTIME_MALLOC, "aclrtMallocWithCfg", params,
                            MemoryOn(), Allocation(devPtr, size), devPtr, size, policy, cfg);
}

aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
    const msptiRuntimeMallocForTaskSchedulerParams params{devPtr, size, policy, cfg};
    return InterceptRuntime(real_aclrtMallocForTaskScheduler, MSPTI_CBID_RUNTIME_MALLOC, "aclrtMallocForTaskScheduler",
                            params, MemoryOn(), Allocation(devPtr, size), devPtr, size, policy, cfg);
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    const msptiRuntimeMallocCachedParams params{devPtr, size, policy};
    // CANN's msPTI reports MALLOC (not MALLOC_CACHED) for this function; kept for compatibility.
    return InterceptRuntime(real_aclrtMallocCached, MSPTI_CBID_RUNTIME_MALLOC, "aclrtMallocCached", params, MemoryOn(),
                            Allocation(devPtr, size), devPtr, size, policy);
}

aclError aclrtFree(void* devPtr) {
    const msptiRuntimeFreeParams params{devPtr};
    return InterceptRuntime(real_aclrtFree, MSPTI_CBID_RUNTIME_FREE, "aclrtFree", params, MemoryOn(), Release(devPtr),
                            devPtr);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    const msptiRuntimeMallocHostParams params{hostPtr, size};
    return InterceptRuntime(real_aclrtMallocHost, MSPTI_CBID_RUNTIME_MALLOC_HOST, "aclrtMallocHost", params, false,
                            NoRecord{}, hostPtr, size);
}

aclError aclrtFreeHost(void* hostPtr) {
    const msptiRuntimeFreeHostParams params{hostPtr};
    return InterceptRuntime(real_aclrtFreeHost, MSPTI_CBID_RUNTIME_FREE_HOST, "aclrtFreeHost", params, false,
                            NoRecord{}, hostPtr);
}

aclError aclrtMemFlush(void* devPtr, size_t size) {
    const msptiRuntimeMemFlushParams params{devPtr, size};
    return InterceptRuntime(real_aclrtMemFlush, MSPTI_CBID_RUNTIME_FLUSH_CACHE, "aclrtMemFlush", params, false,
                            NoRecord{}, devPtr, size);
}

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
    const msptiRuntimeMemInvalidateParams params{devPtr, size};
    return InterceptRuntime(real_aclrtMemInvalidate, MSPTI_CBID_RUNTIME_INVALID_CACHE, "aclrtMemInvalidate", params,
                            false, NoRecord{}, devPtr, size);
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
    const msptiRuntimeGetMemInfoParams params{attr, free, total};
    return InterceptRuntime(real_aclrtGetMemInfo, MSPTI_CBID_RUNTIME_MEM_GET_INFO, "aclrtGetMemInfo", params, false,
                            NoRecord{}, attr, free, total);
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
    const msptiRuntimeReserveMemAddressParams params{virPtr, size, alignment, expectPtr, flags};
    return InterceptRuntime(real_aclrtReserveMemAddress, MSPTI_CBID_RUNTIME_RESERVE_MEM_ADDRESS,
                            "aclrtReserveMemAddress", params, MemoryOn(), Allocation(virPtr, size), virPtr, size,
                            alignment, expectPtr, flags);
}

aclError aclrtReleaseMemAddress(void* virPtr) {
    const msptiRuntimeReleaseMemAddressParams params{virPtr};
    return InterceptRuntime(real_aclrtReleaseMemAddress, MSPTI_CBID_RUNTIME_RELEASE_MEM_ADDRESS,
                            "aclrtReleaseMemAddress", params, MemoryOn(), Release(virPtr), virPtr);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop, uint64_t flags) {
    const msptiRuntimeMallocPhysicalParams params{handle, size, prop, flags};
    return InterceptRuntime(real_aclrtMallocPhysical, MSPTI_CBID_RUNTIME_MALLOC_PHYSICAL, "aclrtMallocPhysical", params,
                            false, NoRecord{}, handle, size, prop, flags);
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
    const msptiRuntimeFreePhysicalParams params{handle};
    return InterceptRuntime(real_aclrtFreePhysical, MSPTI_CBID_RUNTIME_FREE_PHYSICAL, "aclrtFreePhysical", params,
                            false, NoRecord{}, handle);
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t* shareableHandle) {
    const msptiRuntimeMemExportToShareableHandleParams params{handle, handleType, flags, shareableHandle};
    return InterceptRuntime(real_aclrtMemExportToShareableHandle, MSPTI_CBID_RUNTIME_MEM_EXPORT_TO_SHAREABLE_HANDLE,
                            "aclrtMemExportToShareableHandle", params, false, NoRecord{}, handle, handleType, flags,
                            shareableHandle);
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle* handle) {
    const msptiRuntimeMemImportFromShareableHandleParams params{shareableHandle, deviceId, handle};
    return InterceptRuntime(real_aclrtMemImportFromShareableHandle, MSPTI_CBID_RUNTIME_MEM_IMPORT_FROM_SHAREABLE_HANDLE,
                            "aclrtMemImportFromShareableHandle", params, false, NoRecord{}, shareableHandle, deviceId,
                            handle);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
    const msptiRuntimeMemSetPidToShareableHandleParams params{shareableHandle, pid, pidNum};
    return InterceptRuntime(real_aclrtMemSetPidToShareableHandle, MSPTI_CBID_RUNTIME_MEM_SET_PID_TO_SHAREABLE_HANDLE,
                            "aclrtMemSetPidToShareableHandle", params, false, NoRecord{}, shareableHandle, pid, pidNum);
}

}  // extern "C"
#pragma GCC visibility pop
