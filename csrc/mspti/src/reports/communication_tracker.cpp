#include "reports/communication_tracker.h"

#include <atomic>
#include <mutex>
#include <new>
#include <vector>

#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/hot_tls.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "interpose/report_route.h"
#include "cann/cann_api.h"
#include "device/device_registry.h"
#include "cann/name_cache.h"

namespace mspti::seam::communication {
namespace {

// Latest task track of the thread: written on every task track, so kept small and hot.
struct LatestTrack {
    bool has_track;
    uint16_t device;
    uint16_t stream;
    uint32_t task_info;
    uint64_t track_ts;
};
MSPTI_HOT_TLS thread_local LatestTrack t_track{};

struct ThreadState {
    // Operator being assembled.
    uint64_t op;
    uint64_t last_hccl_begin;
    uint64_t last_hccl_end;
    bool has_info;
    MsprofHcclOpInfo info;
    // The operator runs on a device whose collection could not start: its record is counted as
    // dropped (COLLECTION_FAILED) at its first task, and nothing of it is queued.
    bool collection_failed;
    // Operators of this thread queued or counted (AccountedOps).
    uint64_t accounted;
};

thread_local ThreadState t_state{};

std::atomic<uint64_t> g_next_op{1};

struct Queue {
    std::mutex mutex;
    std::vector<TaskEvent> tasks;
    std::vector<OpEvent> ops;
};

Queue& GetQueue() {
    static NoDestructor<Queue> queue;
    return queue.get();
}

const char* HashName(uint64_t id) {
    const char* s = NameCache::Instance().HashText(id);
    return s != nullptr ? s : "";
}

}  // namespace

void OnTaskTrack(const MsprofRuntimeTrack& track, uint64_t ts) {
    t_track.has_track = true;
    t_track.device = track.deviceId;
    t_track.stream = track.streamId;
    t_track.task_info = track.taskId;
    t_track.track_ts = ts;
}

void OnHcclApi(const MsprofApi& api) {
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)) return;
    // The task this API issued is the thread's latest track, if it lies inside the API.
    if (!t_track.has_track || t_track.track_ts < api.beginTime || t_track.track_ts > api.endTime) return;
    t_track.has_track = false;
    if (devices::StarsFailed(t_track.device)) {
        if (!t_state.collection_failed) {
            t_state.collection_failed = true;
            ++t_state.accounted;
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_COMMUNICATION, MSPTI_DROP_REASON_COLLECTION_FAILED);
        }
        return;
    }
    if (t_state.op == 0) t_state.op = g_next_op.fetch_add(1, std::memory_order_relaxed);
    t_state.last_hccl_begin = api.beginTime;
    t_state.last_hccl_end = api.endTime;
    Queue& q = GetQueue();
    std::lock_guard<std::mutex> lock(q.mutex);
    q.tasks.push_back(TaskEvent{t_state.op, t_track.track_ts, t_track.device, t_track.stream, t_track.task_info});
}

void OnOpInfo(const MsprofHcclOpInfo& info) {
    t_state.has_info = true;
    t_state.info = info;
}

void OnNodeLaunch(const MsprofApi& api, uint64_t correlation_id) {
    if (t_state.collection_failed) {  // the operator's end: already counted
        t_state.collection_failed = false;
        t_state.has_info = false;
        return;
    }
    if (t_state.op == 0) return;
    if (t_state.last_hccl_begin < api.beginTime || t_state.last_hccl_end > api.endTime) return;
    OpEvent op{};
    op.op = t_state.op;
    op.correlation_id = correlation_id;
    op.name = HashName(api.itemId);
    if (t_state.has_info) {
        op.alg_type = HashName(t_state.info.algType);
        op.comm_name = HashName(t_state.info.groupName);
        op.count = t_state.info.count;
        op.data_type = t_state.info.dataType;
    } else {
        op.alg_type = "";
        op.comm_name = "";
        op.data_type = MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE;
    }
    t_state.op = 0;
    t_state.has_info = false;
    ++t_state.accounted;
    Queue& q = GetQueue();
    std::lock_guard<std::mutex> lock(q.mutex);
    q.ops.push_back(op);
}

uint64_t AccountedOps() { return t_state.accounted; }

void EndCollectiveCall(uint64_t accounted_before, bool succeeded) {
    if (t_state.accounted != accounted_before) return;
    // Which report is missing, for the log: an operator begun (a task and its HCCL API came) but not
    // finished lost its node launch; a task track not claimed by an HCCL API lost the API report;
    // neither: no task track came (MsprofReportCompactInfo, or task reports never switched on).
    const int missing = t_state.op != 0 ? 0 : (t_track.has_track ? 1 : 2);
    t_state.op = 0;
    t_state.has_info = false;
    t_state.collection_failed = false;
    t_track.has_track = false;
    if (!succeeded || !activity::Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)) return;
    auto get_device = cann::aclrtGetDevice.get();
    int32_t device = -1;
    if (get_device == nullptr || get_device(&device) != 0 || device < 0) return;
    const auto id = static_cast<uint32_t>(device);
    const bool route_broken = interpose::report_route::DeviceUnreported(id);
    if (!route_broken && !devices::StarsActive(id) && !devices::StarsFailed(id)) return;
    static std::atomic<unsigned> logged{0};
    const unsigned bit = route_broken ? 8u : 1u << missing;
    if ((logged.fetch_or(bit, std::memory_order_relaxed) & bit) == 0) {
        static const char* const kMissing[] = {
            "its node launch report (MsprofReportApi)",
            "the HCCL API report of its task (MsprofReportApi)",
            "its task track (MsprofReportCompactInfo, or the task reports were never switched on)",
        };
        MSPTI_LOGW(
            "a collective on device %d returned without CANN reporting %s; its COMMUNICATION record is "
            "counted as dropped, reason COLLECTION_FAILED",
            device,
            route_broken ? "anything (the report route is broken, see the earlier message)" : kMissing[missing]);
    }
    activity::Drops().Add(MSPTI_ACTIVITY_KIND_COMMUNICATION, MSPTI_DROP_REASON_COLLECTION_FAILED);
}

void ForgetAfterFork() {
    Queue& q = GetQueue();
    new (&q.mutex) std::mutex();
    q.tasks.clear();
    q.ops.clear();
    t_state = ThreadState{};
    t_track = LatestTrack{};
}

void DrainEvents(const std::function<void(const TaskEvent&)>& on_task,
                 const std::function<void(const OpEvent&)>& on_op) {
    std::vector<TaskEvent> tasks;
    std::vector<OpEvent> ops;
    {
        Queue& q = GetQueue();
        std::lock_guard<std::mutex> lock(q.mutex);
        tasks.swap(q.tasks);
        ops.swap(q.ops);
    }
    for (const TaskEvent& t : tasks) on_task(t);
    for (const OpEvent& o : ops) on_op(o);
}

}  // namespace mspti::seam::communication
