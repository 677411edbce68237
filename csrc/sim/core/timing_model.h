// Timing-model coefficients per SoC and per HCCL topology, parsed once from
// sim_runtime/data/timing.toml (embedded at build time). The operator cost model
// (opapi/op_costs), the HCCL cost model and the HIXL transfer model read them when
// they build a cost, never per kernel launch. docs/timing.md says where each comes from.
#pragma once

#include <map>
#include <string>

#include "core/export.h"

namespace npusim {

struct NPUSIM_API SocTiming {
    std::string family, basis;  // basis: "measured" or "family" (no public data for this SoC)
    // Cube: rates relative to the SoC's fp16 cube peak.
    double cube_rate_fp16 = 1, cube_rate_bf16 = 1, cube_rate_fp32 = 1, cube_rate_hf32 = 1, cube_rate_int8 = 1;
    // cube_floor_ns: once per kernel; cube_wave_ns: once per wave of output tiles over the cube cores.
    double cube_efficiency = 1, cube_floor_ns = 0, cube_wave_ns = 0, cube_tile_m = 128, cube_tile_n = 256;
    double cube_l2_spill = 1;
    // Attention (FlashAttentionScore).
    double attention_efficiency = 1, attention_floor_ns = 0, attention_fill_tiles = 0, attention_kv_split = 1024;
    // Vector (softmax) time of one 128x128 score tile; the cube time of a tile grows with the head size,
    // this does not, and the two pipelines overlap: a tile costs the larger (0: cube only).
    double attention_vector_tile_ns = 0;
    // Vector: rates relative to the SoC's fp16 vector peak.
    double vector_rate_fp16 = 1, vector_rate_bf16 = 1, vector_rate_fp32 = 1, vector_rate_int8 = 1;
    // Host API cost per API class (ACL calls use the SoC's host_api_ns).
    double hccl_api_ns = 0, hixl_api_ns = 0;
    // Host cost of an ACL call by API family (acl/host_cost.h), charged to the calling thread at the
    // call's entry; 0: the SoC's host_api_ns. acl_sync_ns: a synchronisation's cost once the device is
    // done (wake-up and return; 0: the SoC's sync_wake_ns).
    double acl_launch_ns = 0, acl_memcpy_async_ns = 0, acl_event_record_ns = 0, acl_sync_ns = 0;
    // Host cost of an aclnn operator's two phases beyond the runtime calls they make: the first
    // (aclnnXxxGetWorkspaceSize: checks, tiling, the executor) and the second (aclnnXxx) before its launches.
    double aclnn_workspace_ns = 0, aclnn_run_ns = 0;
    // HIXL over the inter-chip link (hixl_gbps 0: the host link). hixl_alpha_ns, hixl_gbps: WRITE from
    // device memory; hixl_read_*: READ into device memory; hixl_host_*: local host memory, either
    // direction (a rate or fixed cost of 0: as the WRITE's).
    double hixl_alpha_ns = 0, hixl_gbps = 0, hixl_read_gbps = 0, hixl_host_gbps = 0;
    double hixl_read_alpha_ns = 0, hixl_host_alpha_ns = 0;
};

struct NPUSIM_API HcclTiming {
    double collective_link_gbps = 0, collective_aggregate_gbps = 0, collective_alpha_ns = 0, reduce_gbps = 0;
    double p2p_link_gbps = 0, p2p_alpha_ns = 0;
    double staging_bytes = 0, staging_chunk_ns = 0;  // messages above staging_bytes move in chunks
    // The link between servers (RoCE); 0: the topology table's scale-out figures.
    double scaleout_link_gbps = 0, scaleout_alpha_ns = 0;
};

class NPUSIM_API TimingModel {
public:
    // The embedded table (an unreadable one logs an error and leaves every coefficient neutral).
    static const TimingModel& builtin();
    static bool parse(const std::string& text, TimingModel& out, std::string& error);
    // A site timing profile over `base` (`npu-sim calibrate --fit` writes one): [family.<name>],
    // [soc.<name>] and [hccl.<topology>] tables naming only the coefficients they change. A family
    // table changes every SoC of that family, a SoC table then that SoC. An unknown table or key is
    // an error (a misspelt coefficient would otherwise be silently ignored).
    static bool overlay(const std::string& text, const TimingModel& base, TimingModel& out, std::string& error);
    // The model in effect: the process's site profile (NPU_SIM_CONFIG's `timing`, NPU_SIM_TIMING) or
    // the embedded table.
    static const TimingModel& active();

    // The SoC's coefficients; a SoC the table does not name gets neutral ones.
    const SocTiming& soc(const std::string& name) const;
    // The topology's HCCL coefficients, nullptr when the table has none (the topology's own figures apply).
    const HcclTiming* hccl(const std::string& topology) const;

private:
    std::map<std::string, SocTiming> socs_;
    std::map<std::string, HcclTiming> hccl_;
};

// The embedded text of sim_runtime/data/timing.toml.
NPUSIM_API const char* embedded_timing_toml();

}  // namespace npusim
