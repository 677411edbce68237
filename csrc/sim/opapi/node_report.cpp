#include "opapi/node_report.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "seam/profapi.h"

namespace npusim::opapi {

namespace {

std::atomic<uint64_t> g_devices_on{0};  // bit d: node reports on for device d (d < 64)

int32_t on_command(uint32_t type, void* data, uint32_t len) {
    if (type != PROF_CTRL_SWITCH || data == nullptr || len != sizeof(MsprofCommandHandle)) return 0;
    const auto* cmd = static_cast<const MsprofCommandHandle*>(data);
    if (cmd->type == PROF_COMMANDHANDLE_TYPE_FINALIZE) {
        g_devices_on.store(0, std::memory_order_release);
        return 0;
    }
    uint64_t bits = 0;
    for (uint32_t i = 0; i < cmd->devNums && i < PROF_MAX_DEV_NUM; ++i) {
        if (cmd->devIdList[i] < 64) bits |= uint64_t{1} << cmd->devIdList[i];
    }
    if (cmd->type == PROF_COMMANDHANDLE_TYPE_START && (cmd->profSwitch & PROF_TASK_TIME_MASK) != 0) {
        g_devices_on.fetch_or(bits, std::memory_order_acq_rel);
    } else if (cmd->type == PROF_COMMANDHANDLE_TYPE_STOP) {
        g_devices_on.fetch_and(~bits, std::memory_order_acq_rel);
    }
    return 0;
}

// msprof's GeTaskType of a kernel on these cores (AI_CORE 0, AI_CPU 1, AI_VECTOR_CORE 2, MIX_AIC 4).
uint32_t ge_task_type(CoreType core) {
    switch (core) {
        case CoreType::AIV: return 2;
        case CoreType::MIX: return 4;
        case CoreType::AICPU: return 1;
        default: return 0;
    }
}

}  // namespace

void ensure_profiling_hook() {
    static std::once_flag once;
    std::call_once(once, [] { (void)MsprofRegisterCallback(kProfModuleId, on_command); });
}

bool node_reports_on() { return g_devices_on.load(std::memory_order_acquire) != 0; }

uint64_t host_time() { return MsprofSysCycleTime(); }

void report_node_launch(const NodeLaunch& node, uint64_t begin, uint64_t end) {
    const auto thread_id = static_cast<uint32_t>(syscall(SYS_gettid));
    const uint64_t name_hash = MsprofGetHashId(node.node_name.c_str(), node.node_name.size());
    MsprofApi api{};
    api.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    api.level = MSPROF_REPORT_NODE_LEVEL;
    api.type = MSPROF_REPORT_NODE_LAUNCH_TYPE;
    api.threadId = thread_id;
    api.beginTime = begin;
    api.endTime = end;
    api.itemId = name_hash;
    (void)MsprofReportApi(1, &api);

    MsprofCompactInfo info{};
    info.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    info.level = MSPROF_REPORT_NODE_LEVEL;
    info.type = MSPROF_REPORT_NODE_BASIC_INFO_TYPE;
    info.threadId = thread_id;
    info.dataLen = sizeof(MsprofNodeBasicInfo);
    info.timeStamp = end;
    MsprofNodeBasicInfo basic{};
    basic.opName = name_hash;
    basic.taskType = ge_task_type(node.core);
    basic.opType = MsprofGetHashId(node.op_type, std::strlen(node.op_type));
    basic.blockDim = node.block_dim;
    std::memcpy(&info.data.nodeBasicInfo, &basic, sizeof basic);
    (void)MsprofReportCompactInfo(1, &info, sizeof info);
}

}  // namespace npusim::opapi
