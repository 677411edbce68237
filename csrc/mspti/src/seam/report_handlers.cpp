#include "seam/report_handlers.h"

#include <cstring>
#include <string_view>

#include "activity/buffer_manager.h"
#include "activity/correlation.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "callback/api_call.h"
#include "common/thread_id.h"
#include "seam/communication_tracker.h"
#include "seam/copy_tasks.h"
#include "seam/device_registry.h"
#include "seam/device_task_manager.h"
#include "seam/host_time.h"
#include "seam/name_cache.h"
#include "seam/profapi.h"
#include "seam/stream_task_id.h"
#include "seam/task_track_queue.h"

namespace mspti::seam::handlers {
namespace {

using activity::Enabled;

// Whether a task type name starts with "KERNEL" (compared in line: this runs for every task track).
bool IsKernelType(const char* type) {
    if (type == nullptr) return false;
    static constexpr char kPrefix[] = "KERNEL";
    for (size_t i = 0; i + 1 < sizeof kPrefix; ++i) {
        if (type[i] != kPrefix[i]) return false;  // also stops at the end of a shorter name
    }
    return true;
}

// CANN reports on the thread that did the work; ids are per thread, so a report from another
// thread gets an id of its own.
bool OnReportingThread(uint32_t thread_id) { return thread_id == CurrentThreadId(); }

void OnTaskTrack(uint32_t aging, const MsprofCompactInfo& info) {
    const MsprofRuntimeTrack& track = info.data.runtimeTrack;
    communication::OnTaskTrack(track, info.timeStamp);
    NameCache& names = NameCache::Instance();
    const char* type = names.TypeName(MSPROF_REPORT_RUNTIME_LEVEL, static_cast<uint32_t>(track.taskType));
    if (!IsKernelType(type)) {
        // Asynchronous copies and fills are stream tasks timed like kernels (seam/copy_tasks.h).
        copies::OnTaskTrack(aging, info, type);
        return;
    }
    const uint64_t correlation_id = OnReportingThread(info.threadId) ? activity::CorrelationForTrack(info.timeStamp)
                                                                     : activity::AllocateCorrelationId();
    const char* name = names.HashText(track.kernelName);
    callback::NoteKernelName(name);
    // A launch seen while KERNEL is off, or while its device cannot deliver the device half, gives no record;
    // if the device's collection could not start, the record it would have given is counted.
    if (!Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || !devices::StarsActive(track.deviceId)) {
        if (Enabled(MSPTI_ACTIVITY_KIND_KERNEL) && devices::StarsFailed(track.deviceId)) {
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_COLLECTION_FAILED);
        }
        return;
    }
    PushTrack(TrackEvent{correlation_id, info.timeStamp, type, name != nullptr ? name : "", track.taskId,
                         track.deviceId, track.streamId, aging});
}

void WriteApi(msptiActivityKind kind, const MsprofApi& api, uint64_t correlation_id, const char* name) {
    if (name == nullptr || name[0] == '\0') {
        // CANN did not register the name: an API record without a name would be useless.
        activity::Drops().Add(kind, MSPTI_DROP_REASON_BAD_ARGUMENT);
        return;
    }
    msptiActivityApi record{};
    record.kind = kind;
    record.start = host_time::ToRecordTime(api.beginTime);
    record.end = host_time::ToRecordTime(api.endTime);
    if (record.end < record.start) record.end = record.start;
    record.pt.processId = CurrentProcessId();
    record.pt.threadId = api.threadId;
    record.correlationId = correlation_id;
    record.name = name;
    activity::BufferManager::Instance().Write(record);
}

// `here`: the report comes from the thread that made the call (OnReportingThread, asked once per report).
uint64_t ApiCorrelation(const MsprofApi& api, bool here) {
    return here ? activity::CorrelationForApi(api.beginTime, api.endTime) : activity::AllocateCorrelationId();
}

}  // namespace

int32_t OnCompact(uint32_t aging, const void* data, uint32_t length) {
    if (data == nullptr || length != sizeof(MsprofCompactInfo)) return PROFAPI_ERROR;
    MsprofCompactInfo info;
    std::memcpy(&info, data, sizeof info);
    if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE) {
        OnTaskTrack(aging, info);
    } else if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE) {
        copies::OnMemcpyInfo(info);
    } else if (info.level == MSPROF_REPORT_NODE_LEVEL && info.type == MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE) {
        communication::OnOpInfo(info.data.hcclopInfo);
    } else if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_EXPAND_SPEC_TYPE) {
        StreamExpandMode().store(info.data.streamExpandInfo.expandStatus == 1, std::memory_order_relaxed);
    }
    return PROFAPI_SUCCESS;
}

int32_t OnAdditional(uint32_t, const void* data, uint32_t) { return data != nullptr ? PROFAPI_SUCCESS : PROFAPI_ERROR; }

int32_t OnApi(uint32_t, const MsprofApi* raw) {
    if (raw == nullptr) return PROFAPI_ERROR;
    MsprofApi api;
    std::memcpy(&api, raw, sizeof api);
    // Whether the report comes from the thread that made the call: asked at most once per report,
    // and only when an id or the implicit group needs it (a report whose kind is off, inside an
    // interposed call, never does).
    int here_known = -1;
    const auto here = [&] {
        if (here_known < 0) here_known = OnReportingThread(api.threadId) ? 1 : 0;
        return here_known == 1;
    };
    switch (api.level) {
        case MSPROF_REPORT_RUNTIME_LEVEL:
            if (copies::Unsettled() && OnReportingThread(api.threadId)) {
                copies::OnRuntimeApi(NameCache::Instance().TypeName(MSPROF_REPORT_RUNTIME_LEVEL, api.type));
            }
            if (Enabled(MSPTI_ACTIVITY_KIND_RUNTIME_API)) {
                WriteApi(MSPTI_ACTIVITY_KIND_RUNTIME_API, api, ApiCorrelation(api, here()),
                         NameCache::Instance().TypeName(MSPROF_REPORT_RUNTIME_LEVEL, api.type));
            }
            break;
        case MSPROF_REPORT_ACL_LEVEL:
            if (Enabled(MSPTI_ACTIVITY_KIND_ACL_API)) {
                WriteApi(MSPTI_ACTIVITY_KIND_ACL_API, api, ApiCorrelation(api, here()),
                         NameCache::Instance().TypeName(MSPROF_REPORT_ACL_LEVEL, api.type));
            }
            break;
        case MSPROF_REPORT_NODE_LEVEL: {
            const bool launch = api.type == MSPROF_REPORT_NODE_LAUNCH_TYPE;
            const bool comm = launch && Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION);
            const bool node = Enabled(MSPTI_ACTIVITY_KIND_NODE_API);
            const bool plain = Enabled(MSPTI_ACTIVITY_KIND_API);
            if (!comm && !node && !plain) break;
            // One id for the node report: NODE_API, API and the COMMUNICATION operator share it.
            const uint64_t id = ApiCorrelation(api, here());
            const char* name = NameCache::Instance().HashText(api.itemId);
            if (node) WriteApi(MSPTI_ACTIVITY_KIND_NODE_API, api, id, name);
            if (plain) WriteApi(MSPTI_ACTIVITY_KIND_API, api, id, name);
            if (comm) communication::OnNodeLaunch(api, id);
            break;
        }
        case MSPROF_REPORT_HCCL_NODE_LEVEL:
            communication::OnHcclApi(api);
            return PROFAPI_SUCCESS;
        default:
            return PROFAPI_SUCCESS;
    }
    // Any API report ends the implicit correlation group of its thread (see activity/correlation.h).
    if (activity::ImplicitGroupOpen() && here()) activity::NoteApiReport(api.beginTime, api.endTime);
    return PROFAPI_SUCCESS;
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
