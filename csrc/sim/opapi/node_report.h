// Node-launch reports of the operator library (MsprofApi, level 10000, type 5).
//
// The library registers a command handler with libprofapi under module id 45
// (GE: node-level records belong to CANN's graph/operator layer, whose module
// reports them in real CANN) the first time an operator is used; libprofapi replays
// any earlier START to it. A START whose profSwitch has PROF_TASK_TIME_MASK (0x800)
// turns reports on for the devices it lists, a STOP (or FINALIZE) turns them off;
// reports are made while any device has them on. Each report carries the launch's
// node name as itemId (MsprofGetHashId), the OS thread id, and host times from
// MsprofSysCycleTime. After each node launch comes its node basic info (MsprofCompactInfo, level
// 10000, type 0) with the launch's end as timeStamp, as GE reports it: the node, its operator type,
// msprof's task type of the kernel (GeTaskType) and the blockDim it was launched with (op_summary's
// Block Num).
#pragma once

#include <cstdint>
#include <string>

#include "core/catalogue.h"

namespace npusim::opapi {

constexpr uint32_t kProfModuleId = 45;

// Registers the command handler once per process (thread-safe).
void ensure_profiling_hook();
bool node_reports_on();
uint64_t host_time();
// The node launch [begin, end] of one kernel and then its basic info (one thread id, one name hash).
struct NodeLaunch {
    const std::string& node_name;
    const char* op_type;  // the kernel's operator type
    CoreType core;
    uint32_t block_dim;
};
void report_node_launch(const NodeLaunch& node, uint64_t begin, uint64_t end);

}  // namespace npusim::opapi
