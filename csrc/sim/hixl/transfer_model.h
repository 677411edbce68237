// How long a transfer takes in the model: alpha + bytes / bandwidth, with the family's
// calibrated HIXL figures of timing.toml (hixl_alpha_ns, hixl_gbps; the host link when the
// family names no inter-chip rate), and the host cost each API call spends on the virtual
// clock (hixl_api_ns).
#pragma once

#include <cstdint>

namespace hixl {

struct LinkModel {
    double bytes_per_ns = 1.0;  // GB/s == bytes per ns
    uint64_t alpha_ns = 0;
    uint64_t host_api_ns = 0;
    bool virtual_clock = false;
};

// Derived from the process's simulator configuration, once.
const LinkModel& link_model();

uint64_t transfer_duration_ns(uint64_t bytes);

// Virtual clock: the calling thread spends the SoC's host API cost. Wall clock: nothing.
void charge_api_call();

}  // namespace hixl
