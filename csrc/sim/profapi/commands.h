// The control path: CANN modules register a command handle
// (MsprofRegisterCallback), a profiler switches collection on and off with
// profSetProfCommand, and every handle receives the command.
//
// The last START per device is kept, so a module that registers while devices
// are started (a library dlopen'ed after profiling began) immediately receives a
// START for each of them and reports like the modules that were there from the
// beginning. Dispatch, state updates and late-registration replays run under one
// recursive mutex: a module never sees a START and a STOP out of order, and a
// handle may call back into libprofapi on the same thread.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "seam/profapi.h"

namespace npusim::profapi {

class Commands {
public:
    // Registers (or, with nullptr, removes) a module's handle; a replacement keeps the module's place.
    void register_module(uint32_t module_id, ProfCommandHandle handle);
    // Validated command in, every module's handle called in module-id order;
    // returns the first non-zero handle result, else 0.
    int32_t dispatch(void* command, uint32_t length);

    std::vector<uint32_t> modules();
    bool started(uint32_t device, uint64_t* prof_switch);

private:
    void update_state(const MsprofCommandHandle& cmd);

    std::recursive_mutex mutex_;
    std::map<uint32_t, ProfCommandHandle> handles_;     // ordered by module id
    std::map<uint32_t, MsprofCommandHandle> started_;  // device -> its latest START
};

Commands& commands();

}  // namespace npusim::profapi
