// Internal C++ view of the simulated libprofapi, for the simulator's bindings
// and tests. The CANN-facing C API is in seam/profapi.h; these functions only
// observe the hub's state (and reset its counters) and never call a callback.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/export.h"

namespace npusim::profapi {

// The four MsprofReport* entry points.
enum class ReportKind : uint8_t { Api = 0, Event = 1, Compact = 2, Additional = 3 };
constexpr size_t kReportKindCount = 4;

// Reports of this kind that arrived (valid, and not failed by a fault plan)
// while no profiler callback for them was registered. Real CANN would buffer
// them for msprof; the simulator only counts them.
NPUSIM_API uint64_t uncollected_reports(ReportKind kind);
NPUSIM_API void reset_uncollected_reports();

// API reports of one report level (MSPROF_REPORT_*_LEVEL) that reached MsprofReportApi (`made`) and
// that it handed to a registered callback (`delivered`: the reports a profiler was given). Counted
// on the fault points' slow path only, that is while a fault plan is installed or call counts are
// on (core/fault_plan.h), so a traced launch pays nothing for them otherwise; levels other than
// those of the runtime, HCCL nodes, nodes and ACL are counted together under level 0.
struct ApiReportCounts {
    uint64_t made = 0;
    uint64_t delivered = 0;
};
NPUSIM_API ApiReportCounts api_report_counts(uint16_t level);
NPUSIM_API void reset_api_report_counts();

// The callback registered for a ProfileCallbackType (nullptr when none or out of range).
NPUSIM_API void* registered_callback(int32_t type);

// Device state as last reported through MsprofNotifySetDevice (ids 0..63).
NPUSIM_API bool device_is_open(uint32_t device);

// Profiling switch state from profSetProfCommand: a device is started between
// a START that lists it and the next STOP (or FINALIZE); its switch is the
// profSwitch of the latest START.
NPUSIM_API bool device_is_started(uint32_t device);
NPUSIM_API uint64_t device_prof_switch(uint32_t device);  // 0 when not started

// Module ids with a command handle (MsprofRegisterCallback), ascending.
NPUSIM_API std::vector<uint32_t> command_modules();

// Type names recorded by MsprofRegTypeInfo ("" when unknown) and how many there are.
NPUSIM_API std::string type_name(uint16_t level, uint32_t type_id);
NPUSIM_API size_t type_name_count();

// The id libprofapi computes itself when no hash callback is registered
// (deterministic across processes and runs; 0 only for empty input).
NPUSIM_API uint64_t own_hash_id(const char* data, size_t length);

// mstx: the module calls are routed to (PROF_MODULE_MSPROF or PROF_MODULE_MSPTI)
// and whether a tool has filled that module's table.
NPUSIM_API uint32_t current_mstx_module();
NPUSIM_API bool mstx_tool_attached(uint32_t module);

}  // namespace npusim::profapi
