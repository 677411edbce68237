// MsprofRegisterProfileCallback: stores a profiler callback by type. Types whose
// registration must replay earlier state (device states, type names) are handed
// to their owners so the replay and live deliveries cannot interleave.
#include "callback_table.h"

#include "core/fault_plan.h"
#include "core/log.h"
#include "device_states.h"
#include "profapi_internal.h"
#include "type_names.h"

namespace npusim::profapi {

CallbackTable g_callback_table;

void* registered_callback(int32_t type) { return CallbackTable::valid_type(type) ? callbacks().raw(type) : nullptr; }

}  // namespace npusim::profapi

NPUSIM_C_EXPORT int32_t MsprofRegisterProfileCallback(int32_t callbackType, void* callback, uint32_t len) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofRegisterProfileCallback", int32_t, callbackType, callback, len);
    using namespace npusim::profapi;
    if (!CallbackTable::valid_type(callbackType) || len != sizeof(void*)) {
        npusim::log_message(npusim::LogLevel::Error, "MsprofRegisterProfileCallback: bad type %d or length %u",
                            callbackType, len);
        return PROFAPI_ERROR;
    }
    switch (callbackType) {
        case PROFILE_DEVICE_STATE_C_CALLBACK:
            device_states().register_callback(reinterpret_cast<ProfDeviceStateCFunc>(callback));
            break;
        case PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK:
            type_names().register_callback(reinterpret_cast<ProfRegTypeInfoCFunc>(callback));
            break;
        default: callbacks().set(callbackType, callback); break;
    }
    return PROFAPI_SUCCESS;
}
