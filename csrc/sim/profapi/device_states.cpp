// MsprofNotifySetDevice / profRegDeviceStateCallback over DeviceStates.
#include "device_states.h"

#include "callback_table.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "core/immortal.h"
#include "profapi_internal.h"

namespace npusim::profapi {

DeviceStates& device_states() {
    static Immortal<DeviceStates> states;
    return states.get();
}

void DeviceStates::deliver(ProfDeviceStateCFunc callback, uint32_t chip_id, uint32_t device_id, bool is_open) {
    ProfSetDevPara para{};
    para.chipId = chip_id;
    para.deviceId = device_id;
    para.isOpen = is_open;
    // The profiler's verdict on one device does not change the device's state.
    (void)callback(&para, static_cast<uint32_t>(sizeof para));
}

int32_t DeviceStates::notify(uint32_t chip_id, uint32_t device_id, bool is_open) {
    if (device_id >= PROF_MAX_DEV_NUM) {
        log_message(LogLevel::Error, "MsprofNotifySetDevice: device id %u is out of range 0..%u", device_id,
                    PROF_MAX_DEV_NUM - 1);
        return PROFAPI_ERROR;
    }
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    states_[device_id] = State{is_open, chip_id};
    if (auto callback = callbacks().get<ProfDeviceStateCFunc>(PROFILE_DEVICE_STATE_C_CALLBACK)) {
        deliver(callback, chip_id, device_id, is_open);
    }
    return PROFAPI_SUCCESS;
}

void DeviceStates::register_callback(ProfDeviceStateCFunc callback) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    callbacks().set(PROFILE_DEVICE_STATE_C_CALLBACK, reinterpret_cast<void*>(callback));
    if (callback == nullptr) return;
    // Iterate over a copy: a callback may notify another device re-entrantly.
    const auto snapshot = states_;
    for (uint32_t id = 0; id < PROF_MAX_DEV_NUM; ++id) {
        if (snapshot[id].open) deliver(callback, snapshot[id].chip_id, id, true);
    }
}

bool DeviceStates::is_open(uint32_t device_id) {
    if (device_id >= PROF_MAX_DEV_NUM) return false;
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return states_[device_id].open;
}

bool device_is_open(uint32_t device) { return device_states().is_open(device); }

}  // namespace npusim::profapi

NPUSIM_C_EXPORT int32_t MsprofNotifySetDevice(uint32_t chipId, uint32_t deviceId, bool isOpen) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofNotifySetDevice", int32_t, chipId, deviceId, isOpen);
    return npusim::profapi::device_states().notify(chipId, deviceId, isOpen);
}

// The runtime-internal name for registering callback 16; same effect, replay included.
NPUSIM_C_EXPORT int32_t profRegDeviceStateCallback(int32_t (*callback)(void* devState, uint32_t len)) {
    NPUSIM_FAULT_RETURN_ARGS("profRegDeviceStateCallback", int32_t, callback);
    npusim::profapi::device_states().register_callback(callback);
    return PROFAPI_SUCCESS;
}
