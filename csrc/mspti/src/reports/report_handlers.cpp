#include "reports/report_handlers.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "activity/buffer_manager.h"
#include "activity/correlation.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "callback/api_call.h"
#include "common/thread_id.h"
#include "reports/communication_tracker.h"
#include "reports/copy_tasks.h"
#include "reports/node_info.h"
#include "device/device_registry.h"
#include "cann/device_task_manager.h"
#include "cann/host_time.h"
#include "cann/name_cache.h"
#include "seam/profapi.h"
#include "device/stream_task_id.h"
#include "reports/task_track_queue.h"

namespace mspti::seam::handlers {
namespace {

using activity::Enabled;

// Reports are read in place: they come on every launch. Only one that CANN handed at an address its
// type may not be read from (never, from a well-formed caller) is copied first, out of line, so that
// the handlers' common path keeps no copy and tail-calls its level's handler.
template <typename Report>
bool ReadableInPlace(const void* report) {
    return __builtin_expect(reinterpret_cast<uintptr_t>(report) % alignof(Report) == 0, 1);
}

template <typename Report, typename Handle>
[[gnu::noinline, gnu::cold]] int32_t HandleCopy(const void* report, Handle handle) {
    Report copy;
    std::memcpy(&copy, report, sizeof copy);
    return handle(copy);
}

// CANN reports on the thread that did the work; ids are per thread, so a report from another
// thread gets an id of its own.
bool OnReportingThread(uint32_t thread_id) { return thread_id == CurrentThreadId(); }

// A kernel's track, written in place in the thread's ring; the reader resolves the names
// (device/kernel_matcher.cpp).
[[gnu::always_inline]] inline void FillTrack(TrackEvent& event, uint64_t correlation_id, uint32_t aging,
                                             const MsprofCompactInfo& info) {
    const MsprofRuntimeTrack& track = info.data.runtimeTrack;
    event.correlation_id = correlation_id;
    event.host_ts = info.timeStamp;
    event.name_hash = track.kernelName;
    event.type_id = static_cast<uint32_t>(track.taskType);
    event.task_info = track.taskId;
    // deviceId and streamId are adjacent in the track as in the event: one 4-byte copy.
    static_assert(offsetof(MsprofRuntimeTrack, streamId) == offsetof(MsprofRuntimeTrack, deviceId) + 2);
    static_assert(offsetof(TrackEvent, stream) == offsetof(TrackEvent, device) + 2);
    std::memcpy(&event.device, &track.deviceId, 2 * sizeof(uint16_t));
    event.aging = static_cast<uint16_t>(aging != 0);
    event.num_blocks = track.extInfo.kernelInfo.numBlocks;
}

void OnTaskTrack(uint32_t aging, const MsprofCompactInfo& info) {
    const MsprofRuntimeTrack& track = info.data.runtimeTrack;
    // Only the operator records of COMMUNICATION look for the thread's latest track.
    if (Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)) communication::OnTaskTrack(track, info.timeStamp);
    const NameCache& names = NameCache::Instance();
    const auto type_id = static_cast<uint32_t>(track.taskType);
    if (!names.IsKernelTask(type_id)) {
        // Asynchronous copies and fills are stream tasks timed like kernels (reports/copy_tasks.h).
        copies::OnTaskTrack(aging, info, names.TypeName(MSPROF_REPORT_RUNTIME_LEVEL, type_id));
        return;
    }
    const uint64_t correlation_id = OnReportingThread(info.threadId) ? activity::CorrelationForTrack(info.timeStamp)
                                                                     : activity::AllocateCorrelationId();
    callback::NoteKernelName(track.kernelName);
    // A launch seen while KERNEL is off, or while its device cannot deliver the device half, gives no record;
    // if the device's collection could not start, the record it would have given is counted.
    if (!Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || !devices::StarsActive(track.deviceId)) {
        if (Enabled(MSPTI_ACTIVITY_KIND_KERNEL) && devices::StarsFailed(track.deviceId)) {
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_COLLECTION_FAILED);
        }
        return;
    }
    if (TrackEvent* event = BeginTrack()) {
        FillTrack(*event, correlation_id, aging, info);
        EndTrack();
    }
}

// `start` and `end`: the report's times in the records' time base.
[[gnu::always_inline]] inline msptiActivityApi ApiRecord(msptiActivityKind kind, const MsprofApi& api, uint64_t start,
                                                         uint64_t end, uint32_t process_id, uint64_t correlation_id,
                                                         const char* name) {
    msptiActivityApi record{};
    record.kind = kind;
    record.start = start;
    record.end = end < start ? start : end;
    record.pt.processId = process_id;
    record.pt.threadId = api.threadId;
    record.correlationId = correlation_id;
    record.name = name;
    return record;
}

// Inline into each report level's handler: the runtime's is made on every traced launch.
[[gnu::always_inline]] inline void WriteApi(msptiActivityKind kind, const MsprofApi& api, uint64_t correlation_id,
                                            const char* name) {
    if (__builtin_expect(name == nullptr || name[0] == '\0', 0)) {
        // CANN did not register the name: an API record without a name would be useless.
        activity::Drops().Add(kind, MSPTI_DROP_REASON_BAD_ARGUMENT);
        return;
    }
    uint64_t start = api.beginTime;
    uint64_t end = api.endTime;
    host_time::ToRecordTimes(start, end);
    activity::BufferManager::Instance().Write(
        ApiRecord(kind, api, start, end, CurrentProcessId(), correlation_id, name));
}

// Any API report ends the implicit correlation group of its thread, and the first inside a launch
// scope gives the launch its interval (see activity/correlation.h).
[[gnu::always_inline]] inline void EndsImplicitGroup(const MsprofApi& api, bool here) {
    if (activity::ReportAwaited() && here) activity::NoteApiReport(api.beginTime, api.endTime);
}

// The id of a recorded API report, which also has the effect of EndsImplicitGroup: by the thread's
// calls when it comes from the thread that made the call (OnReportingThread), else one of its own.
[[gnu::always_inline]] inline uint64_t ClaimApi(const MsprofApi& api, bool here) {
    return here ? activity::ClaimApi(api.beginTime, api.endTime) : activity::AllocateCorrelationId();
}

// One handler per report level, each reached by a tail call from OnApi (out of line, so that the
// dispatch itself needs no frame).
[[gnu::noinline]] int32_t OnRuntimeApi(const MsprofApi& api) {
    const bool here = OnReportingThread(api.threadId);
    if (__builtin_expect(copies::Unsettled(), 0) && here) {
        copies::OnRuntimeApi(NameCache::Instance().TypeName(MSPROF_REPORT_RUNTIME_LEVEL, api.type));
    }
    if (!Enabled(MSPTI_ACTIVITY_KIND_RUNTIME_API)) {
        EndsImplicitGroup(api, here);
        return PROFAPI_SUCCESS;
    }
    WriteApi(MSPTI_ACTIVITY_KIND_RUNTIME_API, api, ClaimApi(api, here),
             NameCache::Instance().TypeName(MSPROF_REPORT_RUNTIME_LEVEL, api.type));
    return PROFAPI_SUCCESS;
}

[[gnu::noinline]] int32_t WriteAclApi(const MsprofApi& api) {
    const bool here = OnReportingThread(api.threadId);
    WriteApi(MSPTI_ACTIVITY_KIND_ACL_API, api, ClaimApi(api, here),
             NameCache::Instance().TypeName(MSPROF_REPORT_ACL_LEVEL, api.type));
    return PROFAPI_SUCCESS;
}

// The ACL report of every traced launch comes while ACL_API is usually off: that path needs no frame.
// The thread is asked only when an id or the implicit group needs it (a report whose kind is off,
// inside an interposed call or after the group ended, never does).
[[gnu::noinline]] int32_t OnAclApi(const MsprofApi& api) {
    if (Enabled(MSPTI_ACTIVITY_KIND_ACL_API)) return WriteAclApi(api);
    if (__builtin_expect(activity::ReportAwaited(), 0) && OnReportingThread(api.threadId)) {
        activity::NoteApiReport(api.beginTime, api.endTime);
    }
    return PROFAPI_SUCCESS;
}

[[gnu::noinline]] int32_t OnNodeApi(const MsprofApi& api) {
    const bool launch = api.type == MSPROF_REPORT_NODE_LAUNCH_TYPE;
    const bool comm = launch && Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION);
    const bool node = Enabled(MSPTI_ACTIVITY_KIND_NODE_API);
    const bool plain = Enabled(MSPTI_ACTIVITY_KIND_API);
    const bool here = OnReportingThread(api.threadId);
    if (!comm && !node && !plain) {
        EndsImplicitGroup(api, here);
        return PROFAPI_SUCCESS;
    }
    // One id for the node report: NODE_API, API and the COMMUNICATION operator share it.
    const uint64_t id = ClaimApi(api, here);
    const char* name = NameCache::Instance().HashText(api.itemId);
    if (node) WriteApi(MSPTI_ACTIVITY_KIND_NODE_API, api, id, name);
    if (plain) WriteApi(MSPTI_ACTIVITY_KIND_API, api, id, name);
    if (comm) communication::OnNodeLaunch(api, id);
    return PROFAPI_SUCCESS;
}

// The reports of every traced launch, in their common case, as leaves: no call, so no frame and no
// saved registers (which the full handlers need for their rare paths). Each takes a report only when
// it comes from the launching thread inside an interposed call, while everything it reads is set up
// (names, clock offset, the thread's buffer or ring with room) and no other rule applies; otherwise it
// returns false having changed nothing, and the full handler takes the report.

// The runtime's report of the call: its RUNTIME_API record, and the launch's interval.
[[gnu::always_inline]] inline bool RuntimeApiInScope(const MsprofApi& api) {
    const uint32_t tid = CachedThreadId();
    if (api.level != MSPROF_REPORT_RUNTIME_LEVEL || tid == 0 || api.threadId != tid || !activity::InScope() ||
        copies::Unsettled() || !Enabled(MSPTI_ACTIVITY_KIND_RUNTIME_API)) {
        return false;
    }
    const NameCache* names = NameCache::IfCreated();
    const char* name = names != nullptr ? names->FastTypeName(MSPROF_REPORT_RUNTIME_LEVEL, api.type) : nullptr;
    const uint32_t pid = CachedProcessId();
    uint64_t start = api.beginTime;
    uint64_t end = api.endTime;
    if (name == nullptr || name[0] == '\0' || pid == 0 || !host_time::TryToRecordTimes(start, end)) return false;
    const msptiActivityApi record =
        ApiRecord(MSPTI_ACTIVITY_KIND_RUNTIME_API, api, start, end, pid, activity::CurrentScopeId(), name);
    if (!activity::BufferManager::TryAppend(record)) return false;
    activity::ClaimApiInScope(api.beginTime, api.endTime);
    return true;
}

// The ACL report of the call while ACL_API is off (the usual case): nothing to do once the launch
// has its interval.
[[gnu::always_inline]] inline bool AclApiIgnored(const MsprofApi& api) {
    return api.level == MSPROF_REPORT_ACL_LEVEL && !Enabled(MSPTI_ACTIVITY_KIND_ACL_API) && !activity::ReportAwaited();
}

// The kernel's task track.
[[gnu::always_inline]] inline bool KernelTrackInScope(uint32_t aging, const MsprofCompactInfo& info) {
    const MsprofRuntimeTrack& track = info.data.runtimeTrack;
    const uint32_t tid = CachedThreadId();
    constexpr uint64_t kKernel = activity::KindBit(MSPTI_ACTIVITY_KIND_KERNEL);
    constexpr uint64_t kCommunication = activity::KindBit(MSPTI_ACTIVITY_KIND_COMMUNICATION);
    if (info.level != MSPROF_REPORT_RUNTIME_LEVEL || info.type != MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE || tid == 0 ||
        info.threadId != tid || !activity::InScope() ||
        (activity::EnabledMask() & (kKernel | kCommunication)) != kKernel) {  // KERNEL on, COMMUNICATION off
        return false;
    }
    const NameCache* names = NameCache::IfCreated();
    if (names == nullptr || !names->FastKernelTask(static_cast<uint32_t>(track.taskType)) ||
        !devices::StarsActive(track.deviceId)) {
        return false;
    }
    TrackEvent* event = TryBeginTrack();
    if (event == nullptr) return false;
    callback::NoteKernelName(track.kernelName);
    FillTrack(*event, activity::TrackCorrelationInScope(info.timeStamp), aging, info);
    EndTrack();
    return true;
}

[[gnu::noinline]] int32_t DispatchApi(const MsprofApi& api) {
    // The runtime's report comes first and on every launch: one compare reaches it.
    if (__builtin_expect(api.level == MSPROF_REPORT_RUNTIME_LEVEL, 1)) return OnRuntimeApi(api);
    switch (api.level) {
        case MSPROF_REPORT_ACL_LEVEL: return OnAclApi(api);
        case MSPROF_REPORT_NODE_LEVEL: return OnNodeApi(api);
        case MSPROF_REPORT_HCCL_NODE_LEVEL: communication::OnHcclApi(api); return PROFAPI_SUCCESS;
        default: return PROFAPI_SUCCESS;
    }
}

[[gnu::noinline]] int32_t DispatchCompact(uint32_t aging, const MsprofCompactInfo& info) {
    if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE) {
        OnTaskTrack(aging, info);
    } else if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE) {
        copies::OnMemcpyInfo(info);
    } else if (info.level == MSPROF_REPORT_NODE_LEVEL && info.type == MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE) {
        communication::OnOpInfo(info.data.hcclopInfo);
    } else if (info.level == MSPROF_REPORT_NODE_LEVEL && info.type == MSPROF_REPORT_NODE_BASIC_INFO_TYPE) {
        OnNodeBasicInfo(info);
    } else if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_EXPAND_SPEC_TYPE) {
        StreamExpandMode().store(info.data.streamExpandInfo.expandStatus == 1, std::memory_order_relaxed);
    }
    return PROFAPI_SUCCESS;
}

}  // namespace

int32_t OnCompact(uint32_t aging, const void* data, uint32_t length) {
    if (data == nullptr || length != sizeof(MsprofCompactInfo)) return PROFAPI_ERROR;
    if (!ReadableInPlace<MsprofCompactInfo>(data)) {
        return HandleCopy<MsprofCompactInfo>(
            data, [aging](const MsprofCompactInfo& info) { return DispatchCompact(aging, info); });
    }
    const auto& info = *static_cast<const MsprofCompactInfo*>(data);
    if (KernelTrackInScope(aging, info)) return PROFAPI_SUCCESS;
    return DispatchCompact(aging, info);
}

int32_t OnAdditional(uint32_t, const void* data, uint32_t) { return data != nullptr ? PROFAPI_SUCCESS : PROFAPI_ERROR; }

int32_t OnApi(uint32_t, const MsprofApi* raw) {
    if (raw == nullptr) return PROFAPI_ERROR;
    if (!ReadableInPlace<MsprofApi>(raw)) return HandleCopy<MsprofApi>(raw, DispatchApi);
    if (RuntimeApiInScope(*raw) || AclApiIgnored(*raw)) return PROFAPI_SUCCESS;
    return DispatchApi(*raw);
}

int32_t OnEvent(uint32_t, const MsprofEvent* event) { return event != nullptr ? PROFAPI_SUCCESS : PROFAPI_ERROR; }

int32_t OnRegTypeInfo(uint16_t level, uint32_t type_id, const char* name, size_t length) {
    if (name == nullptr) return PROFAPI_ERROR;
    const size_t n = strnlen(name, length != 0 ? length : 4096);
    NameCache::Instance().RegisterType(level, type_id, std::string_view(name, n));
    return PROFAPI_SUCCESS;
}

uint64_t OnGetHashId(const char* info, size_t length) {
    if (info == nullptr) return 0;
    const size_t n = length != 0 ? strnlen(info, length) : std::strlen(info);
    return NameCache::Instance().HashId(std::string_view(info, n));
}

int8_t OnHostFreqIsEnable() { return host_time::HostFreqEnabled() ? 1 : 0; }

int32_t OnDeviceState(void* para, uint32_t length) {
    if (para == nullptr || length != sizeof(ProfSetDevPara)) return PROFAPI_ERROR;
    ProfSetDevPara state;
    std::memcpy(&state, para, sizeof state);
    DeviceTaskManager::Instance().OnDeviceState(state.deviceId, state.isOpen);
    return PROFAPI_SUCCESS;
}

}  // namespace mspti::seam::handlers
