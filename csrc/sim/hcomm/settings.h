// Settings HCCL reads from the environment, once per process.
//
//   HCCL_CONNECT_TIMEOUT  seconds a rank waits for the others at communicator creation
//                         (default 120; fractions allowed, e.g. "0.5")
//   HCCL_EXEC_TIMEOUT     seconds a rank waits for the others inside an operation
//                         (default: HCCL_CONNECT_TIMEOUT); a communicator's hcclExecTimeOut overrides it
//   HCCL_ALGO             algorithm override, e.g. "level0:NA;level1:ring" or per operation
//                         "allreduce=level0:NA;level1:H-D_R/allgather=level0:NA;level1:NHR"
//   HCCL_SIM_MASTER       host:port of the rendezvous of rank-table communicators
//   HCCL_SIM_DATA         "0" runs operations for timing and records only: buffers are not
//                         read or written (large-message benchmarks); default "1"
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace npusim::hcomm {

struct Settings {
    std::chrono::nanoseconds connect_timeout{std::chrono::seconds(120)};
    std::chrono::nanoseconds exec_timeout{std::chrono::seconds(120)};
    std::string algo;
    std::string master;
    bool move_data = true;
};

const Settings& settings();

// Seconds (possibly fractional) to a duration; false when `text` is not a non-negative number.
bool parse_seconds(const std::string& text, std::chrono::nanoseconds& out);

}  // namespace npusim::hcomm
