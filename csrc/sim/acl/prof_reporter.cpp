#include "acl/prof_reporter.h"

#include <mutex>

#include "acl/host_cost.h"
#include "acl/runtime_state.h"
#include "core/log.h"

namespace acl {
namespace prof {

std::atomic<uint64_t> g_switch{0};
std::atomic<uint64_t> g_device_switch[PROF_MAX_DEV_NUM] = {};

namespace {

// Agreed with libprofapi: reports may be aged out (ACL and the runtime pass true).
constexpr uint32_t kAgingFlag = 1;

std::mutex g_command_mutex;  // constant-initialised: a START may arrive during library load

void recompute_switch() {
    uint64_t all = 0;
    for (const auto& device : g_device_switch) all |= device.load(std::memory_order_relaxed);
    g_switch.store(all, std::memory_order_relaxed);
}

// Names are registered on every START that switches something on, not only the
// first: libprofapi does not replay registrations, so a profiler that
// (re)subscribes later still learns every name.
void register_runtime_names() {
    size_t n = 0;
    const TypeName* tasks = task_type_names(&n);
    for (size_t i = 0; i < n; ++i) (void)MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, tasks[i].id, tasks[i].name);
    const TypeName* apis = runtime_api_names(&n);
    for (size_t i = 0; i < n; ++i) (void)MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, apis[i].id, apis[i].name);
}

void register_acl_names() {
    for (uint16_t i = 1; i < static_cast<uint16_t>(AclApi::Count); ++i) {
        const auto api = static_cast<AclApi>(i);
        (void)MsprofRegTypeInfo(MSPROF_REPORT_ACL_LEVEL, acl_type_id(api), acl_api_name(api));
    }
}

int32_t handle_command(uint32_t type, void* data, uint32_t len, void (*register_names)()) {
    if (type != PROF_CTRL_SWITCH) return 0;  // other control kinds carry nothing for the runtime
    if (data == nullptr || len != sizeof(MsprofCommandHandle)) {
        npusim::log_message(npusim::LogLevel::Error, "runtime profiling command: length %u, expected %zu", len,
                            sizeof(MsprofCommandHandle));
        return ACL_ERROR_INVALID_PARAM;
    }
    const auto* cmd = static_cast<const MsprofCommandHandle*>(data);
    if (cmd->devNums > PROF_MAX_DEV_NUM) return ACL_ERROR_INVALID_PARAM;
    bool switched_on = false;
    {
        std::lock_guard<std::mutex> lock(g_command_mutex);
        switch (cmd->type) {
            case PROF_COMMANDHANDLE_TYPE_START:
                for (uint32_t i = 0; i < cmd->devNums; ++i) {
                    if (cmd->devIdList[i] < PROF_MAX_DEV_NUM)
                        g_device_switch[cmd->devIdList[i]].fetch_or(cmd->profSwitch);
                }
                switched_on = cmd->profSwitch != 0;
                break;
            case PROF_COMMANDHANDLE_TYPE_STOP: {
                // A STOP without bits stops everything on its devices.
                const uint64_t clear = cmd->profSwitch != 0 ? cmd->profSwitch : ~uint64_t(0);
                for (uint32_t i = 0; i < cmd->devNums; ++i) {
                    if (cmd->devIdList[i] < PROF_MAX_DEV_NUM) g_device_switch[cmd->devIdList[i]].fetch_and(~clear);
                }
                break;
            }
            case PROF_COMMANDHANDLE_TYPE_FINALIZE:
                for (auto& device : g_device_switch) device.store(0, std::memory_order_relaxed);
                break;
            default: break;
        }
        recompute_switch();
    }
    if (switched_on) register_names();
    return 0;
}

// Registers both command handles while the library loads: the runtime (task
// types, runtime APIs) and ACL (ACL API names) are separate modules in CANN.
struct CommandRegistration {
    CommandRegistration() {
        (void)MsprofRegisterCallback(SEAM_MODULE_RUNTIME, &runtime_command_handle);
        (void)MsprofRegisterCallback(SEAM_MODULE_ASCENDCL, &acl_command_handle);
    }
};
const CommandRegistration g_registration;

}  // namespace

int32_t runtime_command_handle(uint32_t type, void* data, uint32_t len) {
    return handle_command(type, data, len, &register_runtime_names);
}

int32_t acl_command_handle(uint32_t type, void* data, uint32_t len) {
    return handle_command(type, data, len, &register_acl_names);
}

uint64_t now() { return MsprofSysCycleTime(); }

void report_memcpy_info(uint32_t device, uint64_t bytes, uint16_t direction) {
    if (!task_time_on(device)) return;
    MsprofCompactInfo info = runtime_compact_info(MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE, sizeof(MsprofMemcpyInfo));
    info.timeStamp = now();
    info.data.memcpyInfo.dataSize = bytes;
    info.data.memcpyInfo.maxSize = bytes;  // one task moves the whole copy
    info.data.memcpyInfo.memcpyDirection = direction;
    (void)MsprofReportCompactInfo(kAgingFlag, &info, static_cast<uint32_t>(sizeof info));
}

void report_api(AclApi api, uint64_t begin, uint64_t end) {
    const uint64_t sw = effective_switch();
    MsprofApi record{};
    record.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    record.threadId = current_tid();
    record.beginTime = begin;
    record.endTime = end;
    // The runtime call ends inside the ACL call that made it, so it is reported first. The runtime
    // reports its calls while runtime API data or the runtime trace (which task collection
    // switches on) is wanted: a profiler learns which call a task track belongs to from the
    // runtime itself, however the program reached the call.
    const RtApi runtime = runtime_api_of(api);
    if ((sw & (PROF_RUNTIME_API_MASK | PROF_RUNTIME_TRACE_MASK)) != 0 && runtime != RtApi::None) {
        record.level = MSPROF_REPORT_RUNTIME_LEVEL;
        record.type = rt_type_id(runtime);
        (void)MsprofReportApi(kAgingFlag, &record);
    }
    if ((sw & PROF_ACL_API_MASK) != 0) {
        record.level = MSPROF_REPORT_ACL_LEVEL;
        record.type = acl_type_id(api);
        (void)MsprofReportApi(kAgingFlag, &record);
    }
}

}  // namespace prof

ApiScope::ApiScope(AclApi api) : api_(api) {
    if ((prof::effective_switch() & (PROF_ACL_API_MASK | PROF_RUNTIME_API_MASK | PROF_RUNTIME_TRACE_MASK)) != 0) {
        begin_ = prof::now();
    }
    sim_clock().spend(api_entry_ns(api));
}

}  // namespace acl
