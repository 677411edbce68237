// How long a transfer takes in the model: alpha + bytes / bandwidth, both by direction and local memory
// kind, with the family's calibrated HIXL figures of timing.toml (hixl_alpha_ns and hixl_gbps for writes
// from device memory, hixl_read_alpha_ns and hixl_read_gbps for reads into it, hixl_host_alpha_ns and
// hixl_host_gbps when the local memory is host memory; the host link when the family names no
// inter-chip rate), and the host cost each API call spends on the virtual clock (hixl_api_ns).
#pragma once

#include <cstdint>

#include "hixl/hixl_types.h"

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
};

// Derived from the process's simulator configuration, once.
const LinkModel& link_model();

uint64_t transfer_duration_ns(uint64_t bytes, TransferOp op, bool local_host);

// Virtual clock: the calling thread spends the SoC's host API cost. Wall clock: nothing.
void charge_api_call();

}  // namespace hixl
