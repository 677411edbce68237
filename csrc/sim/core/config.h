// The simulator's configuration, read once per process from the environment:
// NPU_SIM_CONFIG (a TOML file), then NPU_SIM_SOC, NPU_SIM_DEVICES, NPU_SIM_CLOCK,
// NPU_SIM_SEED, NPU_SIM_FAULTS, NPU_SIM_KERNEL_COSTS, NPU_SIM_LOG_LEVEL, NPU_SIM_DEVICE_LOGS,
// NPU_SIM_TIMING.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/catalogue.h"
#include "core/export.h"
#include "core/timing_model.h"

namespace npusim {

enum class ClockMode : uint8_t { Wall, Virtual };
// When a device log written to a profiling channel becomes readable: once the clock has passed its
// device time (Due, the default), or only once the host has also waited for the device up to that
// time (Sync: a stream, event or device synchronisation), which fixes how a profiler's reader
// batches the logs whatever the machine's load (the instruction benchmark, docs/performance.md).
enum class DeviceLogRelease : uint8_t { Due, Sync };
enum class LogLevel : int;

struct NPUSIM_API SimConfig {
    const SocSpec* soc = nullptr;
    uint32_t devices = 1;
    ClockMode clock = ClockMode::Wall;
    DeviceLogRelease device_logs = DeviceLogRelease::Due;
    uint64_t seed = 0;
    double jitter_pct = 0;
    std::string faults;
    std::string kernel_costs_path;
    KernelCostTable kernel_costs;
    // A site timing profile (`timing`, NPU_SIM_TIMING) over the embedded timing.toml; empty: the embedded one.
    std::string timing_path;
    std::optional<TimingModel> timing;
    LogLevel log_level;
    // Empty when the configuration is valid; otherwise what to fix. An invalid
    // configuration falls back to the defaults and makes aclInit/drvGetDevNum fail.
    std::string error;

    SimConfig();
};

// Builds a configuration from an environment (tests pass their own map).
NPUSIM_API SimConfig load_sim_config(const std::map<std::string, std::string>& env);
NPUSIM_API std::map<std::string, std::string> process_environment();

// The process's configuration (loaded on first use).
NPUSIM_API const SimConfig& sim_config();

}  // namespace npusim
