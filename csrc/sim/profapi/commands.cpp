// MsprofRegisterCallback / profSetProfCommand over Commands.
#include "commands.h"

#include <cstring>
#include <memory>

#include "core/fault_plan.h"
#include "core/log.h"
#include "core/immortal.h"
#include "profapi_internal.h"

namespace npusim::profapi {

Commands& commands() {
    static Immortal<Commands> cmds;
    return cmds.get();
}

void Commands::register_module(uint32_t module_id, ProfCommandHandle handle) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (handle == nullptr) {
        handles_.erase(module_id);
        return;
    }
    handles_[module_id] = handle;
    if (started_.empty()) return;
    // One START per started device, each listing only that device, as a profiler sends them.
    const auto snapshot = started_;
    auto replay = std::make_unique<MsprofCommandHandle>();  // 5 KiB: off the stack
    for (const auto& [device, start] : snapshot) {
        *replay = start;
        replay->devNums = 1;
        std::memset(replay->devIdList, 0, sizeof replay->devIdList);
        replay->devIdList[0] = device;
        (void)handle(PROF_CTRL_SWITCH, replay.get(), static_cast<uint32_t>(sizeof *replay));
    }
}

void Commands::update_state(const MsprofCommandHandle& cmd) {
    switch (cmd.type) {
        case PROF_COMMANDHANDLE_TYPE_START:
            for (uint32_t i = 0; i < cmd.devNums; ++i) {
                if (cmd.devIdList[i] < PROF_MAX_DEV_NUM) started_[cmd.devIdList[i]] = cmd;
            }
            break;
        case PROF_COMMANDHANDLE_TYPE_STOP:
            for (uint32_t i = 0; i < cmd.devNums; ++i) started_.erase(cmd.devIdList[i]);
            break;
        case PROF_COMMANDHANDLE_TYPE_FINALIZE: started_.clear(); break;
        default: break;  // INIT and model (un)subscription do not switch devices
    }
}

int32_t Commands::dispatch(void* command, uint32_t length) {
    if (command == nullptr || length != sizeof(MsprofCommandHandle)) {
        log_message(LogLevel::Error, "profSetProfCommand: command %s, length %u (expected %zu)",
                    command == nullptr ? "missing" : "present", length, sizeof(MsprofCommandHandle));
        return PROFAPI_ERROR;
    }
    const auto* cmd = static_cast<const MsprofCommandHandle*>(command);
    if (cmd->devNums > PROF_MAX_DEV_NUM) {
        log_message(LogLevel::Error, "profSetProfCommand: devNums %u exceeds %u", cmd->devNums, PROF_MAX_DEV_NUM);
        return PROFAPI_ERROR;
    }
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    update_state(*cmd);
    // Iterate over a copy: a handle may (un)register modules re-entrantly.
    const auto snapshot = handles_;
    int32_t result = PROFAPI_SUCCESS;
    for (const auto& [module_id, handle] : snapshot) {
        const int32_t rc = handle(PROF_CTRL_SWITCH, command, length);
        if (rc != 0 && result == PROFAPI_SUCCESS) {
            log_message(LogLevel::Warn, "profSetProfCommand: module %u returned %d", module_id, rc);
            result = rc;
        }
    }
    return result;
}

std::vector<uint32_t> Commands::modules() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    std::vector<uint32_t> ids;
    for (const auto& entry : handles_) ids.push_back(entry.first);
    return ids;
}

bool Commands::started(uint32_t device, uint64_t* prof_switch) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto it = started_.find(device);
    if (prof_switch != nullptr) *prof_switch = it == started_.end() ? 0 : it->second.profSwitch;
    return it != started_.end();
}

std::vector<uint32_t> command_modules() { return commands().modules(); }
bool device_is_started(uint32_t device) { return commands().started(device, nullptr); }
uint64_t device_prof_switch(uint32_t device) {
    uint64_t bits = 0;
    commands().started(device, &bits);
    return bits;
}

}  // namespace npusim::profapi

NPUSIM_C_EXPORT int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofRegisterCallback", int32_t, moduleId, handle);
    npusim::profapi::commands().register_module(moduleId, handle);
    return PROFAPI_SUCCESS;
}

NPUSIM_C_EXPORT int32_t profSetProfCommand(void* command, uint32_t len) {
    NPUSIM_FAULT_RETURN_ARGS("profSetProfCommand", int32_t, command, len);
    return npusim::profapi::commands().dispatch(command, len);
}
