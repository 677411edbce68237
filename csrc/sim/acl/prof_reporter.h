// Everything the runtime reports to the profiling framework (libprofapi):
// the switch a profiler sets through its START/STOP commands, the type names,
// API records at the exit of every API and the task track of every device task.
//
// The switch is one atomic word per device plus their OR, so a call with
// profiling off pays one relaxed load.
#pragma once

#include <atomic>
#include <cstdint>

#include "acl/api_ids.h"
#include "acl/runtime_state.h"
#include "core/device.h"
#include "seam/profapi.h"

namespace acl {

namespace prof {

extern std::atomic<uint64_t> g_switch;                    // OR over all devices
extern std::atomic<uint64_t> g_device_switch[PROF_MAX_DEV_NUM];

inline uint64_t effective_switch() { return g_switch.load(std::memory_order_relaxed); }

inline bool task_time_on(uint32_t device) {
    return (effective_switch() & PROF_TASK_TIME_MASK) != 0 && device < PROF_MAX_DEV_NUM &&
           (g_device_switch[device].load(std::memory_order_relaxed) & PROF_TASK_TIME_MASK) != 0;
}

// The aging flag of a report: 1 for an ordinary task, 0 for a graph (captured) task, whose one
// track stands for every execution.
constexpr uint32_t kOrdinaryTask = 1;
constexpr uint32_t kGraphTask = 0;

// A runtime compact report (level 5000) of `type` made on this thread, its payload `data_len` bytes and
// still zero.
[[gnu::always_inline]] inline MsprofCompactInfo runtime_compact_info(uint32_t type, uint32_t data_len) {
    MsprofCompactInfo info{};
    info.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    info.level = MSPROF_REPORT_RUNTIME_LEVEL;
    info.type = type;
    info.threadId = current_tid();
    info.dataLen = data_len;
    return info;
}

// Reports the host half of a device task (5000/802), stamped with the task's submission time (the
// report time for a captured task); kernel_hash is 0 for non-kernel tasks; num_blocks is the blockDim
// of an AI Core or AI Vector kernel (the track's MsprofKernelInfo, as CANN's runtime fills it), 0 for
// other tasks.
// Inline: it is made on every traced launch, and a call of its own would save and restore the
// caller's registers around a few stores.
[[gnu::always_inline]] inline void report_task_track(const npusim::TaskRecord& task, TaskType type,
                                                     uint64_t kernel_hash, uint16_t num_blocks = 0,
                                                     uint32_t aging = kOrdinaryTask) {
    MsprofCompactInfo info = runtime_compact_info(MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE, sizeof(MsprofRuntimeTrack));
    // The launch time is when the runtime submitted the task, the time the device model starts it
    // from (at least the launch latency later). Stamping it when the report is made instead would,
    // whenever the thread is slowed or preempted after scheduling, put the launch after the task's
    // own device start. A captured task (no submission yet) is stamped at capture.
    info.timeStamp = task.submit_ns != 0 ? task.submit_ns : MsprofSysCycleTime();
    MsprofRuntimeTrack& track = info.data.runtimeTrack;
    track.deviceId = static_cast<uint16_t>(task.device);
    track.streamId = task.stream_id;
    track.taskId = task.task_id;
    track.taskType = static_cast<uint64_t>(type);
    track.kernelName = kernel_hash;
    track.extInfo.kernelInfo.numBlocks = num_blocks;
    (void)MsprofReportCompactInfo(aging, &info, static_cast<uint32_t>(sizeof info));
}

// Reports the size and direction (SEAM_RT_MEMCPY_*) of an asynchronous copy (5000/801), on the
// copying thread just before the copy's task track, while the device's task times are on. The
// runtime's reports are all a profiler has of a copy the program reached without an interposer.
void report_memcpy_info(uint32_t device, uint64_t bytes, uint16_t direction);

// Reports the API records of one call (level 20000 and, if mapped and switched on, level 5000).
void report_api(AclApi api, uint64_t begin, uint64_t end);

// Host timestamp of reports (MsprofSysCycleTime).
uint64_t now();

// The command handles registered with libprofapi (exposed for tests of the switch logic).
int32_t runtime_command_handle(uint32_t type, void* data, uint32_t len);
int32_t acl_command_handle(uint32_t type, void* data, uint32_t len);

}  // namespace prof

// Brackets one API call: takes its begin time at entry (only when profiling
// wants API records), charges the modelled host cost of a call, and reports
// the call at exit.
class ApiScope {
public:
    explicit ApiScope(AclApi api);
    ~ApiScope() {
        if (begin_ != 0) prof::report_api(api_, begin_, prof::now());
    }
    ApiScope(const ApiScope&) = delete;
    ApiScope& operator=(const ApiScope&) = delete;

private:
    AclApi api_;
    uint64_t begin_ = 0;
};

}  // namespace acl
