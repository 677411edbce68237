// The SoC catalogue, HCCL topologies and the kernel cost table, parsed from the
// data files of sim_runtime/data (embedded at build time; a user cost file may
// replace the kernel table at run time).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/export.h"

namespace npusim {

struct NPUSIM_API SocSpec {
    std::string name;
    uint32_t chip_type = 0;
    std::string family;
    uint32_t aic = 0, aiv = 0, aicpu = 0;
    uint32_t cube_mhz = 0;
    uint64_t memory_bytes = 0;
    uint64_t l2_bytes = 0;
    double cube_flops_per_cycle = 0;    // per AIC, fp16
    double vector_flops_per_cycle = 0;  // per AIV, fp16
    double hbm_gbps = 0, hbm_peak_gbps = 0, host_link_gbps = 0;
    uint32_t hd_connect_type = 0;
    uint64_t host_api_ns = 0, launch_latency_ns = 0, task_gap_ns = 0, task_overhead_ns = 0;
    uint64_t sync_wake_ns = 0, memcpy_fixed_ns = 0, event_task_ns = 0;
    uint32_t devices_per_server = 1;
    std::string topology;
    int64_t dev_osc_khz = 1000000;

    double cube_flops_per_ns() const { return aic * cube_flops_per_cycle * cube_mhz * 1e-3; }
    double vector_flops_per_ns() const { return aiv * vector_flops_per_cycle * cube_mhz * 1e-3; }
    // halGetDeviceInfo(VERSION) carries the chip type in bits 8..15.
    int64_t chip_version() const { return static_cast<int64_t>(chip_type) << 8; }
};

struct NPUSIM_API Topology {
    std::string name, kind;
    uint32_t ranks_per_server = 1;
    double alpha_ns = 0, link_gbps = 0, aggregate_gbps = 0;
    double sio_alpha_ns = 0, sio_gbps = 0;
    double scaleout_alpha_ns = 0, scaleout_gbps = 0;
    double reduce_gbps = 0;
};

enum class CoreType : uint8_t { Inherit, AIC, AIV, MIX, AICPU };

// The data type class a kernel's compute is priced at, as the AI Core's arithmetic PMU events tell
// them apart: fp16 (and bf16) cube and vector work, int8 cube work, fp32 and int32 vector work, other
// vector work (misc). The roofline's peaks are fp16 rates, so a kernel no operator describes is fp16.
enum class ComputeDtype : uint8_t { Fp16, Fp32, Int8, Int32, Other };

struct NPUSIM_API KernelCost {
    std::string pattern;
    uint64_t duration_ns = 0;  // fixed device time when non-zero
    double flops = 0, bytes = 0;
    bool per_block = false;
    CoreType core = CoreType::Inherit;
};

class NPUSIM_API KernelCostTable {
public:
    // First entry whose glob matches the name, case-insensitively; the table always ends in "*".
    const KernelCost& lookup(const std::string& kernel_name) const;
    const std::vector<KernelCost>& entries() const { return entries_; }
    static bool parse(const std::string& text, KernelCostTable& out, std::string& error);

private:
    std::vector<KernelCost> entries_;
};

struct NPUSIM_API SimDefaults {
    std::string soc = "Ascend910B3";
    uint32_t devices = 8;
    std::string clock = "wall";
    uint64_t seed = 0;
    double jitter_pct = 0;
};

class NPUSIM_API Catalogue {
public:
    static const Catalogue& builtin();
    static bool parse(const std::string& text, Catalogue& out, std::string& error);

    const SocSpec* soc(const std::string& name) const;
    const Topology* topology(const std::string& name) const;
    const SimDefaults& defaults() const { return defaults_; }
    std::string soc_names() const;  // "a, b, c" for messages

private:
    std::map<std::string, SocSpec> socs_;
    std::map<std::string, Topology> topologies_;
    SimDefaults defaults_;
};

// The embedded text of sim_runtime/data/*.toml.
NPUSIM_API const char* embedded_socs_toml();
NPUSIM_API const char* embedded_kernel_costs_toml();
// sim_runtime/data/kernel_names.toml: CANN's kernel names from public captures (opapi/op_table.cpp).
NPUSIM_API const char* embedded_kernel_names_toml();

NPUSIM_API const char* core_type_name(CoreType type);

}  // namespace npusim
