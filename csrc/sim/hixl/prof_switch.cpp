#include "prof_switch.h"

#include <mutex>
#include <set>

#include "core/log.h"
#include "hixl/hixl_types.h"
#include "prof_type_names.h"
#include "seam/profapi.h"

namespace hixl::prof {

std::atomic<bool> g_prof_run{false};

namespace {

// The HIXL switch bit of MsprofCommandHandle.profSwitch (ACL_API).
constexpr uint64_t kHixlApiSwitch = PROF_ACL_API_MASK;

std::mutex& prof_mutex() {
    static std::mutex* m = new std::mutex;  // usable by a command arriving during exit
    return *m;
}

std::set<uint32_t>& devices() {
    static std::set<uint32_t>* d = new std::set<uint32_t>;
    return *d;
}

uint32_t listed(const MsprofCommandHandle& cmd) {
    return cmd.devNums < PROF_MAX_DEV_NUM ? cmd.devNums : PROF_MAX_DEV_NUM;
}

Status prof_inner_start(const MsprofCommandHandle& cmd) {
    const Status st = register_prof_types();
    if (st != SUCCESS) return st;
    for (uint32_t i = 0; i < listed(cmd); ++i) devices().insert(cmd.devIdList[i]);
    g_prof_run.store(true, std::memory_order_relaxed);
    npusim::log_message(npusim::LogLevel::Info, "HIXL profiling on (%zu device(s))", devices().size());
    return SUCCESS;
}

Status prof_inner_stop(const MsprofCommandHandle& cmd) {
    for (uint32_t i = 0; i < listed(cmd); ++i) devices().erase(cmd.devIdList[i]);
    if (devices().empty()) {
        g_prof_run.store(false, std::memory_order_relaxed);
        npusim::log_message(npusim::LogLevel::Info, "HIXL profiling off");
    }
    return SUCCESS;
}

Status process_prof_data(void* data, uint32_t len) {
    std::lock_guard<std::mutex> lock(prof_mutex());
    if (data == nullptr) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL profiling: command data is null");
        return PARAM_INVALID;
    }
    constexpr size_t kCommandLen = sizeof(MsprofCommandHandle);
    if (len < kCommandLen) {
        npusim::log_message(npusim::LogLevel::Error,
                            "HIXL profiling: command length %u is invalid, it must not be smaller than %zu", len,
                            kCommandLen);
        return PARAM_INVALID;
    }
    const auto* cmd = static_cast<const MsprofCommandHandle*>(data);
    if ((cmd->profSwitch & kHixlApiSwitch) == 0) return SUCCESS;
    if (cmd->type == PROF_COMMANDHANDLE_TYPE_START) return prof_inner_start(*cmd);
    if (cmd->type == PROF_COMMANDHANDLE_TYPE_STOP) return prof_inner_stop(*cmd);
    return SUCCESS;
}

// Registers the command handle when the library is loaded.
struct RegisterAtLoad {
    RegisterAtLoad() {
        const int32_t rc = MsprofRegisterCallback(SEAM_MODULE_HIXL, &HixlProfCtrlHandle);
        if (rc != PROFAPI_SUCCESS) {
            npusim::log_message(npusim::LogLevel::Error, "HIXL profiling: registering the command handle failed: %d",
                                rc);
        }
    }
};
const RegisterAtLoad g_register_at_load;

}  // namespace

int32_t HixlProfCtrlHandle(uint32_t data_type, void* data, uint32_t len) {
    if (data_type != PROF_CTRL_SWITCH) return static_cast<int32_t>(SUCCESS);
    return static_cast<int32_t>(process_prof_data(data, len));
}

}  // namespace hixl::prof
