// The type ids the runtime reports under and the names it registers for them:
// ACL API records (level 20000, 0x030000 + ordinal), runtime API records
// (level 5000, 1000 + ordinal) and runtime task types (level 5000, the
// taskType of a task track). One X-macro list per table keeps ids and names
// in step.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/catalogue.h"

namespace acl {

// Runtime APIs: (enumerator, ordinal, registered name). Ordinals 3, 6, 9, 12, 14, 20
// and 22 are the ones CANN's runtime uses for the same calls; the rest (from 200)
// are the simulator's own, kept clear of CANN's range.
#define ACL_RT_API_LIST(X)                                     \
    X(KernelLaunch, 3, "KernelLaunch")                         \
    X(StreamCreate, 6, "StreamCreate")                         \
    X(StreamSynchronize, 9, "StreamSynchronize")               \
    X(EventRecord, 12, "EventRecord")                          \
    X(DevMalloc, 14, "DevMalloc")                              \
    X(MemCopySync, 20, "MemCopySync")                          \
    X(SetDevice, 22, "SetDevice")                              \
    X(DeviceReset, 200, "DeviceReset")                         \
    X(DeviceSynchronize, 201, "DeviceSynchronize")             \
    X(ContextCreate, 202, "ContextCreate")                     \
    X(ContextDestroy, 203, "ContextDestroy")                   \
    X(ContextSetCurrent, 204, "ContextSetCurrent")             \
    X(StreamDestroy, 205, "StreamDestroy")                     \
    X(StreamWaitEvent, 206, "StreamWaitEvent")                 \
    X(EventCreate, 207, "EventCreate")                         \
    X(EventDestroy, 208, "EventDestroy")                       \
    X(EventReset, 209, "EventReset")                           \
    X(EventSynchronize, 210, "EventSynchronize")               \
    X(EventQuery, 211, "EventQuery")                           \
    X(EventElapsedTime, 212, "EventElapsedTime")               \
    X(DevFree, 213, "DevFree")                                 \
    X(HostMalloc, 214, "HostMalloc")                           \
    X(HostFree, 215, "HostFree")                               \
    X(MemGetInfo, 216, "MemGetInfo")                           \
    X(MemFlush, 217, "MemFlush")                               \
    X(MemInvalidate, 218, "MemInvalidate")                     \
    X(ReserveMemAddress, 219, "ReserveMemAddress")             \
    X(ReleaseMemAddress, 220, "ReleaseMemAddress")             \
    X(MallocPhysical, 221, "MallocPhysical")                   \
    X(FreePhysical, 222, "FreePhysical")                       \
    X(MapMem, 223, "MapMem")                                   \
    X(UnmapMem, 224, "UnmapMem")                               \
    X(MemExportShareable, 225, "MemExportToShareableHandle")   \
    X(MemImportShareable, 226, "MemImportFromShareableHandle") \
    X(MemSetPidShareable, 227, "MemSetPidToShareableHandle")   \
    X(MemcpyAsync, 228, "MemcpyAsync")                         \
    X(Memcpy2d, 229, "Memcpy2d")                               \
    X(Memcpy2dAsync, 230, "Memcpy2dAsync")                     \
    X(MemSetSync, 231, "MemSetSync")                           \
    X(MemsetAsync, 232, "MemsetAsync")                         \
    X(CallbackLaunch, 233, "CallbackLaunch")                   \
    X(BinaryLoad, 234, "BinaryLoad")                           \
    X(BinaryUnLoad, 235, "BinaryUnLoad")                       \
    X(BinaryGetFunction, 236, "BinaryGetFunction")             \
    X(KernelArgs, 237, "KernelArgs")                           \
    X(ProfilerTrace, 238, "ProfilerTraceEx")

enum class RtApi : uint16_t {
    None = 0,
#define ACL_X(e, ordinal, name) e = ordinal,
    ACL_RT_API_LIST(ACL_X)
#undef ACL_X
};

// Every exported ACL function: (function name, runtime API it maps to).
#define ACL_API_LIST(X)                                      \
    X(aclInit, None)                                         \
    X(aclFinalize, None)                                     \
    X(aclrtGetVersion, None)                                 \
    X(aclrtGetRunMode, None)                                 \
    X(aclrtGetSocName, None)                                 \
    X(aclrtSetDevice, SetDevice)                             \
    X(aclrtResetDevice, DeviceReset)                         \
    X(aclrtGetDevice, None)                                  \
    X(aclrtGetDeviceCount, None)                             \
    X(aclrtSynchronizeDevice, DeviceSynchronize)             \
    X(aclrtGetDeviceInfo, None)                              \
    X(aclGetDeviceCapability, None)                          \
    X(aclrtGetDevicesTopo, None)                             \
    X(aclrtGetLogicDevIdByUserDevId, None)                   \
    X(aclrtGetPhyDevIdByLogicDevId, None)                    \
    X(aclrtCreateContext, ContextCreate)                     \
    X(aclrtDestroyContext, ContextDestroy)                   \
    X(aclrtSetCurrentContext, ContextSetCurrent)             \
    X(aclrtGetCurrentContext, None)                          \
    X(aclrtGetPrimaryCtxState, None)                         \
    X(aclrtCreateStream, StreamCreate)                       \
    X(aclrtCreateStreamWithConfig, StreamCreate)             \
    X(aclrtDestroyStream, StreamDestroy)                     \
    X(aclrtSynchronizeStream, StreamSynchronize)             \
    X(aclrtSynchronizeStreamWithTimeout, StreamSynchronize)  \
    X(aclrtStreamGetId, None)                                \
    X(aclrtStreamWaitEvent, StreamWaitEvent)                 \
    X(aclrtCreateEvent, EventCreate)                         \
    X(aclrtCreateEventWithFlag, EventCreate)                 \
    X(aclrtCreateEventExWithFlag, EventCreate)               \
    X(aclrtDestroyEvent, EventDestroy)                       \
    X(aclrtRecordEvent, EventRecord)                         \
    X(aclrtResetEvent, EventReset)                           \
    X(aclrtSynchronizeEvent, EventSynchronize)               \
    X(aclrtQueryEvent, EventQuery)                           \
    X(aclrtQueryEventStatus, EventQuery)                     \
    X(aclrtEventElapsedTime, EventElapsedTime)               \
    X(aclrtEventGetTimestamp, None)                          \
    X(aclrtGetEventId, None)                                 \
    X(aclrtMalloc, DevMalloc)                                \
    X(aclrtMallocCached, DevMalloc)                          \
    X(aclrtMallocAlign32, DevMalloc)                         \
    X(aclrtMallocWithCfg, DevMalloc)                         \
    X(aclrtMallocForTaskScheduler, DevMalloc)                \
    X(aclrtFree, DevFree)                                    \
    X(aclrtMallocHost, HostMalloc)                           \
    X(aclrtFreeHost, HostFree)                               \
    X(aclrtGetMemInfo, MemGetInfo)                           \
    X(aclrtMemFlush, MemFlush)                               \
    X(aclrtMemInvalidate, MemInvalidate)                     \
    X(aclrtReserveMemAddress, ReserveMemAddress)             \
    X(aclrtReleaseMemAddress, ReleaseMemAddress)             \
    X(aclrtMallocPhysical, MallocPhysical)                   \
    X(aclrtFreePhysical, FreePhysical)                       \
    X(aclrtMapMem, MapMem)                                   \
    X(aclrtUnmapMem, UnmapMem)                               \
    X(aclrtMemExportToShareableHandle, MemExportShareable)   \
    X(aclrtMemImportFromShareableHandle, MemImportShareable) \
    X(aclrtMemSetPidToShareableHandle, MemSetPidShareable)   \
    X(aclrtMemcpy, MemCopySync)                              \
    X(aclrtMemcpyAsync, MemcpyAsync)                         \
    X(aclrtMemcpy2d, Memcpy2d)                               \
    X(aclrtMemcpy2dAsync, Memcpy2dAsync)                     \
    X(aclrtMemset, MemSetSync)                               \
    X(aclrtMemsetAsync, MemsetAsync)                         \
    X(aclrtLaunchCallback, CallbackLaunch)                   \
    X(aclrtLaunchHostFunc, CallbackLaunch)                   \
    X(aclrtBinaryLoadFromFile, BinaryLoad)                   \
    X(aclrtBinaryLoadFromData, BinaryLoad)                   \
    X(aclrtBinaryUnLoad, BinaryUnLoad)                       \
    X(aclrtBinaryGetFunction, BinaryGetFunction)             \
    X(aclrtBinaryGetFunctionByEntry, BinaryGetFunction)      \
    X(aclrtLaunchKernel, KernelLaunch)                       \
    X(aclrtLaunchKernelV2, KernelLaunch)                     \
    X(aclrtLaunchKernelWithConfig, KernelLaunch)             \
    X(aclrtLaunchKernelWithHostArgs, KernelLaunch)           \
    X(aclrtKernelArgsInit, KernelArgs)                       \
    X(aclrtKernelArgsAppend, KernelArgs)                     \
    X(aclrtKernelArgsFinalize, KernelArgs)                   \
    X(aclrtProfTrace, ProfilerTrace)                         \
    X(aclmdlRICaptureBegin, None)                            \
    X(aclmdlRICaptureGetInfo, None)                          \
    X(aclmdlRICaptureEnd, None)                              \
    X(aclmdlRICaptureThreadExchangeMode, None)               \
    X(aclmdlRIExecuteAsync, None)                            \
    X(aclmdlRIExecute, None)                                 \
    X(aclmdlRIDestroy, None)                                 \
    X(aclrtDeviceCanAccessPeer, None)                        \
    X(aclrtDeviceEnablePeerAccess, None)                     \
    X(aclrtDeviceDisablePeerAccess, None)                    \
    X(aclrtDeviceGetBareTgid, None)                          \
    X(aclrtGetFunctionAddr, None)                            \
    X(aclrtProcessReport, None)                              \
    X(aclrtSetDeviceSatMode, None)                           \
    X(aclrtGetDeviceSatMode, None)                           \
    X(aclrtSetSysParamOpt, None)                             \
    X(aclrtCtxSetSysParamOpt, None)                          \
    X(aclrtGetSysParamOpt, None)                             \
    X(aclrtSetOpWaitTimeout, None)                           \
    X(aclrtSetOpExecuteTimeOut, None)                        \
    X(aclrtSetOpExecuteTimeOutV2, None)                      \
    X(aclrtSetStreamOverflowSwitch, None)                    \
    X(aclrtGetStreamOverflowSwitch, None)                    \
    X(aclrtSetStreamFailureMode, None)                       \
    X(aclrtGetLastError, None)                               \
    X(aclrtPeekAtLastError, None)                            \
    X(aclrtSynchronizeDeviceWithTimeout, None)               \
    X(aclrtResetDeviceForce, DeviceReset)                    \
    X(aclrtGetErrorVerbose, None)                            \
    X(aclrtStreamQuery, None)

// Ordinal 0 is unused so that no API reports under the bare base id.
enum class AclApi : uint16_t {
    Unused = 0,
#define ACL_X(fn, rt) fn,
    ACL_API_LIST(ACL_X)
#undef ACL_X
        Count
};

constexpr uint32_t kAclApiBaseType = 0x030000;  // MSPROF_REPORT_ACL_RUNTIME_BASE_TYPE
constexpr uint32_t kRtApiBaseType = 1000;        // MSPROF_REPORT_RUNTIME_API_BASE_TYPE

constexpr uint32_t acl_type_id(AclApi api) { return kAclApiBaseType + static_cast<uint32_t>(api); }
constexpr uint32_t rt_type_id(RtApi api) { return kRtApiBaseType + static_cast<uint32_t>(api); }

const char* acl_api_name(AclApi api);
RtApi runtime_api_of(AclApi api);

// Runtime task types: the taskType of a 5000/802 task track (CANN's TS task type ids).
#define ACL_TASK_TYPE_LIST(X)                   \
    X(KernelAicore, 0, "KERNEL_AICORE")         \
    X(KernelAicpu, 1, "KERNEL_AICPU")           \
    X(EventRecord, 2, "EVENT_RECORD")           \
    X(EventWait, 3, "EVENT_WAIT")               \
    X(MemcpyAsync, 5, "MEMCPY_ASYNC")           \
    X(NotifyWait, 14, "NOTIFY_WAIT")            \
    X(NotifyRecord, 15, "NOTIFY_RECORD")        \
    X(ProfilerTraceEx, 26, "PROFILER_TRACE_EX") \
    X(HostFunc, 27, "HOST_FUNC")                \
    X(MemsetAsync, 32, "MEMSET_ASYNC")          \
    X(FftsPlus, 52, "FFTS_PLUS")                \
    X(KernelAivec, 66, "KERNEL_AIVEC")          \
    X(KernelMixAic, 108, "KERNEL_MIX_AIC")      \
    X(KernelMixAiv, 109, "KERNEL_MIX_AIV")

enum class TaskType : uint16_t {
#define ACL_X(e, id, name) e = id,
    ACL_TASK_TYPE_LIST(ACL_X)
#undef ACL_X
};

// The kernel task type a core type runs as.
TaskType kernel_task_type(npusim::CoreType core);

// taskType field of the STARS log header (6 bits). The simulator's choice of SQE
// kinds: AI core work, AI CPU work, event record/wait, DMA (copies and fills) and
// placeholder tasks (host functions, profiler traces).
namespace stars {
constexpr uint16_t kAiCore = 0;
constexpr uint16_t kAiCpu = 1;
constexpr uint16_t kPlaceHolder = 3;
constexpr uint16_t kEventRecord = 4;
constexpr uint16_t kEventWait = 5;
constexpr uint16_t kSdma = 11;
}  // namespace stars

// Iteration over the name tables, for registration.
struct TypeName {
    uint32_t id;
    const char* name;
};
const TypeName* task_type_names(size_t* count);
const TypeName* runtime_api_names(size_t* count);

}  // namespace acl
