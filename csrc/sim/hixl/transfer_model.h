// How long a transfer takes in the model, by the engine's path (transfer_path.h).
//
// hixl_cs (the path fitted on the hixl_cs rows): alpha + bytes / bandwidth, both by direction and local
// memory kind, with the family's calibrated HIXL figures of timing.toml (hixl_alpha_ns and hixl_gbps for
// writes from device memory, hixl_read_alpha_ns and hixl_read_gbps for reads into it, hixl_host_alpha_ns
// and hixl_host_gbps when the local memory is host memory; the host link when the family names no
// inter-chip rate).
//
// The communication domain (ADXL): the descriptors go to HCCL in calls of at most 256
// (HcclBatchPut / HcclBatchGet, each costing the family's hccl_api_ns on the host); HCCL turns each
// descriptor into one SDMA copy task on the stream (TransportIpcMem over HCCS: no notify, no fence); the
// stream runs them back to back with the SoC's task costs (launch_latency_ns to reach the device,
// task_gap_ns between tasks, task_overhead_ns each), each moving its bytes at the HIXL link rate of its
// direction (device memory) or the SoC's host link (host memory, the rate of the runtime's own
// host-device copies); then the host synchronises the stream (sync_wake_ns).
//
// Every API call spends hixl_api_ns on the virtual clock.
#pragma once

#include <cstdint>
#include <vector>

#include "hixl/hixl_types.h"
#include "transfer_path.h"

namespace hixl {

struct LinkModel {
    double bytes_per_ns = 1.0;  // GB/s == bytes per ns: a WRITE from local device memory
    double read_bytes_per_ns = 1.0;  // a READ into local device memory
    double host_bytes_per_ns = 1.0;  // either direction when the local memory is host memory
    uint64_t alpha_ns = 0;  // per transfer, by the same three kinds
    uint64_t read_alpha_ns = 0;
    uint64_t host_alpha_ns = 0;
    uint64_t host_api_ns = 0;
    bool virtual_clock = false;
    // The communication domain's costs (the SoC's task costs, HCCL's per-call host cost, the host link).
    uint64_t hccl_call_ns = 0;
    uint64_t launch_latency_ns = 0;
    uint64_t task_gap_ns = 0;
    uint64_t task_overhead_ns = 0;
    uint64_t sync_wake_ns = 0;
    double host_link_bytes_per_ns = 1.0;
};

// HCCL one-sided descriptors per HcclBatchPut / HcclBatchGet call of the communication domain
// (hicann/hixl@9ed283b2 src/llm_datadist/adxl/comm_channel.cc kMaxOpDescNum).
constexpr size_t kCommDescsPerCall = 256;

// Derived from the process's simulator configuration, once.
const LinkModel& link_model();

// The time from the call's start to its return (TransferSync) or its completion (TransferAsync).
uint64_t transfer_duration_ns(TransferPath path, const std::vector<TransferOpDesc>& descs, TransferOp op,
                              bool local_host);

// Virtual clock: the calling thread spends the SoC's host API cost. Wall clock: nothing.
void charge_api_call();

}  // namespace hixl
