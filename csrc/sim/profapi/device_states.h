// Open/closed state of devices 0..63 and the DEVICE_STATE_C callback.
//
// The runtime reports every set/reset of a device; a profiler learns the state
// through callback 16. Registering that callback replays every open device at
// once, so a profiler attached after aclrtSetDevice still sees the device.
// Live notifications and the replay go out under one (recursive) mutex so a
// profiler never sees a close overtaken by a stale replayed open; a callback
// may call back into libprofapi on the same thread.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include "seam/profapi.h"

namespace npusim::profapi {

class DeviceStates {
public:
    // Records the state and tells the profiler; PROFAPI_ERROR for a device id >= 64.
    int32_t notify(uint32_t chip_id, uint32_t device_id, bool is_open);
    // Registers (or, with nullptr, removes) callback 16 and replays every open device.
    void register_callback(ProfDeviceStateCFunc callback);
    bool is_open(uint32_t device_id);

private:
    struct State {
        bool open = false;
        uint32_t chip_id = 0;
    };
    static void deliver(ProfDeviceStateCFunc callback, uint32_t chip_id, uint32_t device_id, bool is_open);

    std::recursive_mutex mutex_;
    std::array<State, PROF_MAX_DEV_NUM> states_{};
};

DeviceStates& device_states();

}  // namespace npusim::profapi
