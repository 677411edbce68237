// Node basic info (MsprofCompactInfo, level 10000, type 0): the operator a node launch ran and the
// blockDim its kernel was launched with. msPTI's records do not carry it; the simulated CANN's
// libmsprofiler, which collects through msPTI, is told each one (npusim_mspti_observe_node_info,
// activity_api.cpp) and joins it to the node launch of the same thread that ended at its time
// (docs/msprof.md, "Block Num").
#pragma once

#include <cstdint>

#include "seam/profapi.h"

namespace mspti::seam {

// Not msPTI's API. `time`: the report's time in the records' time base (the node launch's end);
// called on the reporting thread. nullptr: none.
using NodeInfoObserver = void (*)(uint32_t thread_id, uint64_t time, uint32_t block_dim, uint32_t task_type);
void SetNodeInfoObserver(NodeInfoObserver observer);

namespace handlers {
void OnNodeBasicInfo(const MsprofCompactInfo& info);
}  // namespace handlers

}  // namespace mspti::seam
