// MsprofSysCycleTime: the host timestamp CANN components put into their reports.
//
// Host-frequency mode is off in the simulator (halGetAPIVersion is below the
// version that enables it), so this is the simulator clock: CLOCK_MONOTONIC_RAW
// ns in wall mode, the deterministic virtual clock in virtual mode.
#include <cstdint>

#include "core/clock.h"
#include "core/fault_plan.h"

NPUSIM_C_EXPORT uint64_t MsprofSysCycleTime(void) {
    NPUSIM_FAULT_RETURN("MsprofSysCycleTime", uint64_t);
    return npusim::Clock::instance().now();
}
