#include "reports/copy_tasks.h"

#include <cstring>

#include "activity/correlation.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/thread_id.h"
#include "device/device_registry.h"
#include "cann/name_cache.h"
#include "reports/task_track_queue.h"

namespace mspti::seam::copies {
namespace {

// The interposed copy or fill running on this thread.
struct Interposed {
    msptiActivityKind kind = MSPTI_ACTIVITY_KIND_INVALID;  // INVALID: none
    uint32_t detail = 0;
    uint64_t bytes = 0;
    bool on_device = false;
    bool sync = false;
};
thread_local Interposed t_call;

// The latest copy or fill track of this thread that no interposer saw, waiting for the runtime's
// API report of its call (which follows the track inside the call) to tell whether the call was
// synchronous.
struct WaitingTrack {
    CopyTrackEvent event{};
    bool valid = false;
};
thread_local WaitingTrack t_unsettled;

void Settle(bool sync) {
    t_unsettled.event.sync = sync;
    t_unsettled.valid = false;
    detail::t_track_waiting = false;
    PushCopyTrack(t_unsettled.event);
}

// The latest memcpy info of this thread, not yet taken by a copy track.
struct MemcpyInfo {
    uint64_t bytes = 0;
    uint16_t direction = 0;
    bool valid = false;
};
thread_local MemcpyInfo t_info;

}  // namespace

msptiActivityKind KindOfTaskType(const char* type) {
    if (type == nullptr) return MSPTI_ACTIVITY_KIND_INVALID;
    static constexpr char kMemcpy[] = "MEMCPY_ASYNC";
    static constexpr char kMemset[] = "MEMSET_ASYNC";
    if (NameCache::StartsWithKernel(type)) return MSPTI_ACTIVITY_KIND_KERNEL;
    if (std::strcmp(type, kMemcpy) == 0) return MSPTI_ACTIVITY_KIND_MEMCPY;
    if (std::strcmp(type, kMemset) == 0) return MSPTI_ACTIVITY_KIND_MEMSET;
    return MSPTI_ACTIVITY_KIND_INVALID;
}

msptiActivityMemcpyKind FromRuntimeDirection(uint16_t direction) {
    switch (direction) {
        case SEAM_RT_MEMCPY_HOST_TO_HOST: return MSPTI_ACTIVITY_MEMCPY_KIND_HTOH;
        case SEAM_RT_MEMCPY_HOST_TO_DEVICE:
        case SEAM_RT_MEMCPY_HOST_TO_DEVICE_EX: return MSPTI_ACTIVITY_MEMCPY_KIND_HTOD;
        case SEAM_RT_MEMCPY_DEVICE_TO_HOST:
        case SEAM_RT_MEMCPY_DEVICE_TO_HOST_EX: return MSPTI_ACTIVITY_MEMCPY_KIND_DTOH;
        case SEAM_RT_MEMCPY_DEVICE_TO_DEVICE:
        case SEAM_RT_MEMCPY_ADDR_DEVICE_TO_DEVICE: return MSPTI_ACTIVITY_MEMCPY_KIND_DTOD;
        case SEAM_RT_MEMCPY_MANAGED:
        case SEAM_RT_MEMCPY_DEFAULT: return MSPTI_ACTIVITY_MEMCPY_KIND_DEFAULT;
        default: return MSPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
    }
}

void OnMemcpyInfo(const MsprofCompactInfo& info) {
    if (info.threadId != CurrentThreadId()) return;  // taken only by a track of the same thread
    t_info = MemcpyInfo{info.data.memcpyInfo.dataSize, info.data.memcpyInfo.memcpyDirection, true};
}

// Out of line and cold: a kernel's track never gets here.
[[gnu::noinline, gnu::cold]] void OnTaskTrack(uint32_t aging, const MsprofCompactInfo& info, const char* type) {
    const msptiActivityKind kind = KindOfTaskType(type);
    if (kind != MSPTI_ACTIVITY_KIND_MEMCPY && kind != MSPTI_ACTIVITY_KIND_MEMSET) return;
    const MsprofRuntimeTrack& track = info.data.runtimeTrack;
    const bool here = info.threadId == CurrentThreadId();
    // The memcpy info belongs to the copy whose track follows it; whatever track comes next takes it.
    const MemcpyInfo memcpy_info = here ? t_info : MemcpyInfo{};
    if (here) t_info.valid = false;
    const bool interposed = here && t_call.kind == kind;
    // An interposed synchronous call writes its own record, timed around the call.
    if (interposed && t_call.sync) return;
    if (here && t_unsettled.valid) Settle(false);  // no report came between: an asynchronous call's
    // A copy task neither inside an interposed copy nor announced by the runtime's memcpy info is
    // not a program's copy (a collective's task is reported as MEMCPY_ASYNC too): no record.
    if (kind == MSPTI_ACTIVITY_KIND_MEMCPY && !interposed && !memcpy_info.valid) return;
    if (!activity::Enabled(kind) || !devices::StarsActive(track.deviceId)) {
        // An interposed call keeps its host record; one that no interposer saw is counted when its
        // device half could never be collected.
        if (!interposed && activity::Enabled(kind) && devices::StarsFailed(track.deviceId)) {
            activity::Drops().Add(kind, MSPTI_DROP_REASON_COLLECTION_FAILED);
        }
        return;
    }
    // The kernels' rule (activity/correlation.h): the id of the call the track is reported in.
    const uint64_t correlation_id =
        here ? activity::CorrelationForCopyTrack(info.timeStamp) : activity::AllocateCorrelationId();
    CopyTrackEvent event{TrackEvent{correlation_id, info.timeStamp, 0, static_cast<uint32_t>(track.taskType),
                                    track.taskId, track.deviceId, track.streamId, static_cast<uint16_t>(aging != 0), 0},
                         0, kind, 0, false};
    if (interposed) {
        event.detail = t_call.detail;
        event.bytes = t_call.bytes;
        t_call.on_device = true;
    } else if (kind == MSPTI_ACTIVITY_KIND_MEMCPY) {
        event.detail = static_cast<uint32_t>(FromRuntimeDirection(memcpy_info.direction));
        event.bytes = memcpy_info.bytes;
    }
    if (!interposed && here) {
        t_unsettled.event = event;
        t_unsettled.valid = true;
        detail::t_track_waiting = true;
        return;
    }
    PushCopyTrack(event);
}

void OnRuntimeApi(const char* name) {
    if (!t_unsettled.valid) return;
    // The runtime's names of its asynchronous calls say so ("MemcpyAsync", "MemsetAsync", ...); the
    // synchronous ones ("MemCopySync", "Memcpy2d", "MemSetSync") do not.
    Settle(name != nullptr && std::strstr(name, "Async") == nullptr);
}

InterposedCall::InterposedCall(msptiActivityKind kind, uint32_t detail, uint64_t bytes, bool sync) {
    t_call = Interposed{kind, detail, bytes, false, sync};
}

InterposedCall::~InterposedCall() { t_call = Interposed{}; }

bool InterposedCall::OnDevice() const { return t_call.on_device; }

}  // namespace mspti::seam::copies
