// The host half of COMMUNICATION records. For a communication operator CANN
// reports, on the operator's thread and in this order:
//   for every task: the task track (5000/802), then a level-5500 API whose
//   interval contains that track;
//   the HCCL op info (10000/10: data type, count, algorithm, group);
//   the node launch API (10000/5) whose interval contains the 5500 APIs.
// The tracker follows that sequence per thread and hands tasks and finished
// operators to the device-data side (CommunicationMatcher).
#pragma once

#include <cstdint>
#include <functional>

#include "seam/profapi.h"

namespace mspti::seam::communication {

struct TaskEvent {
    uint64_t op;  // process-unique operator sequence number
    uint64_t track_ts;  // CANN host time of the task's track
    uint16_t device;
    uint16_t stream;  // raw
    uint32_t task_info;
};

struct OpEvent {
    uint64_t op;
    uint64_t correlation_id;
    const char* name;
    const char* alg_type;
    const char* comm_name;
    uint64_t count;
    uint32_t data_type;
};

// Called on the reporting thread, from the profapi report handlers.
void OnTaskTrack(const MsprofRuntimeTrack& track, uint64_t ts);
void OnHcclApi(const MsprofApi& api);
void OnOpInfo(const MsprofHcclOpInfo& info);
void OnNodeLaunch(const MsprofApi& api, uint64_t correlation_id);

// The operators of the calling thread whose record was queued or counted as dropped so far: an
// interposed collective reads it before and after its real call (CANN reports the operator inside
// the call).
uint64_t AccountedOps();
// After an interposed collective: when CANN's reports inside the call gave no operator
// (`accounted_before` unchanged: a task track, an HCCL API or the node launch was lost on the report
// route), the thread's half-assembled operator is abandoned so that the next one starts clean and, if
// the call `succeeded`, the COMMUNICATION record msPTI owes is counted as dropped (COLLECTION_FAILED)
// when COMMUNICATION is enabled and the device collects (or its report route is known broken).
void EndCollectiveCall(uint64_t accounted_before, bool succeeded);

// Hands the queued events over (requires the device-data mutex).
void DrainEvents(const std::function<void(const TaskEvent&)>& on_task,
                 const std::function<void(const OpEvent&)>& on_op);

// fork(), in the child: the queued events and the forking thread's operator in progress are the
// parent's and are discarded.
void ForgetAfterFork();

}  // namespace mspti::seam::communication
