// MsprofSysCycleTime: the host timestamp CANN components put into their reports.
//
// Host-frequency mode is off in the simulator (halGetAPIVersion is below the
// version that enables it), so this is the simulator clock: CLOCK_MONOTONIC_RAW
// ns in wall mode, the deterministic virtual clock in virtual mode.
#include <cstdint>

#include "core/clock.h"
#include "core/fault_plan.h"

namespace {

// Out of line: the exported function stays frameless while no fault point may fire (it is read
// four times per traced launch).
[[gnu::noinline, gnu::cold]] uint64_t SysCycleTimeFaulted() {
    NPUSIM_FAULT_RETURN("MsprofSysCycleTime", uint64_t);
    return npusim::Clock::instance().now();
}

}  // namespace

NPUSIM_C_EXPORT uint64_t MsprofSysCycleTime(void) {
    if (__builtin_expect(!npusim::fault_points_idle(), 0)) return SysCycleTimeFaulted();
    return npusim::Clock::instance().now();
}
