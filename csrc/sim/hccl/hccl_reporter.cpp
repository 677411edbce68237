#include "hccl_reporter.h"

#include "core/platform.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

#include "core/log.h"
#include "seam/profapi.h"

namespace hccl::prof {

namespace {

constexpr uint32_t kAgingFlag = 1;  // reports may be aged out, as CANN's modules pass
constexpr const char* kTaskTypeName = "MEMCPY_ASYNC";

std::array<std::atomic<uint64_t>, PROF_MAX_DEV_NUM> g_switch{};
std::mutex g_command_mutex;

uint64_t bits(uint32_t device) {
    return device < PROF_MAX_DEV_NUM ? g_switch[device].load(std::memory_order_relaxed) : 0;
}

int32_t command_handle(uint32_t type, void* data, uint32_t len) {
    if (type != PROF_CTRL_SWITCH) return 0;
    if (data == nullptr || len != sizeof(MsprofCommandHandle)) {
        npusim::log_message(npusim::LogLevel::Error, "hccl profiling command: length %u, expected %zu", len,
                            sizeof(MsprofCommandHandle));
        return PROFAPI_ERROR;
    }
    const auto* cmd = static_cast<const MsprofCommandHandle*>(data);
    if (cmd->devNums > PROF_MAX_DEV_NUM) return PROFAPI_ERROR;
    bool started = false;
    {
        std::lock_guard<std::mutex> lock(g_command_mutex);
        switch (cmd->type) {
            case PROF_COMMANDHANDLE_TYPE_START:
                for (uint32_t i = 0; i < cmd->devNums; ++i) {
                    if (cmd->devIdList[i] < PROF_MAX_DEV_NUM) g_switch[cmd->devIdList[i]].fetch_or(cmd->profSwitch);
                }
                started = cmd->profSwitch != 0;
                break;
            case PROF_COMMANDHANDLE_TYPE_STOP: {
                // Like the runtime: STOP clears its bits on its devices; without bits, everything.
                const uint64_t clear = cmd->profSwitch != 0 ? cmd->profSwitch : ~uint64_t(0);
                for (uint32_t i = 0; i < cmd->devNums; ++i) {
                    if (cmd->devIdList[i] < PROF_MAX_DEV_NUM) g_switch[cmd->devIdList[i]].fetch_and(~clear);
                }
                break;
            }
            case PROF_COMMANDHANDLE_TYPE_FINALIZE:
                for (auto& s : g_switch) s.store(0);
                break;
            default: break;
        }
    }
    // A profiler resolves task types by name; register ours on every START (no replay exists).
    if (started) (void)MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, kTaskTypeMemcpy, kTaskTypeName);
    return 0;
}

uint64_t hash(const std::string& s) { return MsprofGetHashId(s.c_str(), s.size()); }

MsprofCompactInfo compact(uint16_t level, uint32_t type, uint32_t tid, uint64_t time, uint32_t data_len) {
    MsprofCompactInfo c;
    std::memset(&c, 0, sizeof c);
    c.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    c.level = level;
    c.type = type;
    c.threadId = tid;
    c.dataLen = data_len;
    c.timeStamp = time;
    return c;
}

MsprofApi api(uint16_t level, uint32_t type, uint32_t tid, uint64_t begin, uint64_t end, uint64_t item) {
    MsprofApi a;
    std::memset(&a, 0, sizeof a);
    a.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    a.level = level;
    a.type = type;
    a.threadId = tid;
    a.beginTime = begin;
    a.endTime = end;
    a.itemId = item;
    return a;
}

}  // namespace

void install() {
    if (MsprofRegisterCallback(SEAM_MODULE_HCCL, command_handle) != 0) {
        npusim::log_message(npusim::LogLevel::Warn, "hccl: cannot register the profiling command handle");
    }
}

bool any_on(uint32_t device) { return bits(device) != 0; }

uint32_t current_tid() {
    thread_local const auto tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    return tid;
}

void report_op(const OpReport& op, const npusim::TaskRecord& task) {
    const uint64_t on = bits(task.device);
    const bool task_time = (on & PROF_TASK_TIME_MASK) != 0;
    const bool hccl_trace = (on & PROF_HCCL_TRACE_MASK) != 0;
    if (!task_time && !hccl_trace) return;
    const uint32_t tid = current_tid();
    const uint64_t item = hash(op.item_name);
    // Host times inside the call: t0 < api begin < track < api end < op info < t4, with t4 the end of
    // the call's modelled host cost, but never later than now: on the wall clock a call can return
    // sooner than its modelled cost, and the node must not end after the call has returned.
    const uint64_t t0 = op.t0;
    const uint64_t now = npusim::Platform::instance().clock().now();
    const uint64_t t4 = std::max<uint64_t>(t0 + 5, std::min<uint64_t>(now, t0 + op.host_ns));
    const uint64_t api_begin = t0 + 1, track_time = t0 + 2, api_end = t0 + 3, info_time = t0 + 4;

    if (task_time) {
        MsprofCompactInfo c = compact(MSPROF_REPORT_RUNTIME_LEVEL, MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE, tid,
                                      track_time, sizeof(MsprofRuntimeTrack));
        c.data.runtimeTrack.deviceId = static_cast<uint16_t>(task.device);
        c.data.runtimeTrack.streamId = task.stream_id;
        c.data.runtimeTrack.taskId = task.task_id;
        c.data.runtimeTrack.taskType = kTaskTypeMemcpy;
        c.data.runtimeTrack.kernelName = item;
        (void)MsprofReportCompactInfo(kAgingFlag, &c, sizeof c);
    }
    if (hccl_trace) {
        const MsprofApi master =
            api(MSPROF_REPORT_HCCL_NODE_LEVEL, MSPROF_REPORT_HCCL_MASTER_TYPE, tid, api_begin, api_end, item);
        (void)MsprofReportApi(kAgingFlag, &master);
        MsprofCompactInfo c = compact(MSPROF_REPORT_NODE_LEVEL, MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE, tid, info_time,
                                      sizeof(MsprofHcclOpInfo));
        c.data.hcclopInfo.flags = 0;
        c.data.hcclopInfo.dataType = static_cast<uint8_t>(op.dtype);
        c.data.hcclopInfo.algType = hash(op.algorithm);
        c.data.hcclopInfo.count = op.count;
        c.data.hcclopInfo.groupName = hash(op.group);
        (void)MsprofReportCompactInfo(kAgingFlag, &c, sizeof c);
    }
    if (task_time) {
        const MsprofApi launch = api(MSPROF_REPORT_NODE_LEVEL, MSPROF_REPORT_NODE_LAUNCH_TYPE, tid, t0, t4, item);
        (void)MsprofReportApi(kAgingFlag, &launch);
    }
}

}  // namespace hccl::prof
