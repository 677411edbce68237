// Whether HIXL reports its transfers, as the profiling framework commands.
//
// At library load the module registers its command handle with libprofapi
// (MsprofRegisterCallback(HIXL = 12, ...)). A START whose profSwitch has the
// ACL_API bit registers the type names, adds the command's devices and turns
// reporting on; a STOP with the bit removes its devices, and reporting turns off
// once no device is left. Reading the switch is one relaxed atomic load.
#pragma once

#include <atomic>
#include <cstdint>

namespace hixl::prof {

extern std::atomic<bool> g_prof_run;

inline bool running() { return g_prof_run.load(std::memory_order_relaxed); }

// The command handle (ProfCommandHandle signature). Returns a HIXL status:
// PARAM_INVALID for a missing or short command, FAILED when type registration fails.
int32_t HixlProfCtrlHandle(uint32_t data_type, void* data, uint32_t len);

}  // namespace hixl::prof
