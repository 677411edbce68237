// HCCL's reports to the profiling framework, as CANN makes them for an operation
// (cann-seam 4.5), on the thread that called the operation:
//   1. per device task: the compact 5000/802 task track (MEMCPY_ASYNC, kernelName = the op's
//      hash), then the level-5500 HCCL master API around it (itemId = the op's hash);
//   2. the compact 10000/10 HCCL op info (data type, count, algorithm and group-name hashes);
//   3. the level-10000 node-launch API [t0, t4] (itemId = the op's hash, e.g. "hcom_allReduce_");
// and only then the device logs of the tasks. The module registers its command handle for
// module 3 (HCCL) when libhccl loads; per device, task tracks and the node launch follow
// TASK_TIME (0x800), the 5500 API and the op info follow HCCL_TRACE (0x20). Host times come
// from MsprofSysCycleTime's clock and lie in [t0, t0 + the SoC's host API cost].
#pragma once

#include <cstdint>
#include <string>

#include "core/device.h"

namespace hccl::prof {

// The runtime task type of HCCL's data tasks and the STARS SQE type of their logs.
constexpr uint64_t kTaskTypeMemcpy = 5;
constexpr uint16_t kStarsSdma = 11;

void install();  // registers the command handle (library load)
bool any_on(uint32_t device);

struct OpReport {
    const char* item_name = "";  // "hcom_allReduce_", ...
    uint32_t dtype = 0;
    uint64_t count = 0;
    std::string algorithm;
    std::string group;
    uint64_t t0 = 0;        // host time the call began
    uint64_t host_ns = 0;   // the modelled host cost of the call
};

void report_op(const OpReport& op, const npusim::TaskRecord& task);

// The OS thread id of the caller, cached.
uint32_t current_tid();

}  // namespace hccl::prof
