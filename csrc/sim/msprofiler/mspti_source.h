// The data source of libmsprofiler: our msPTI library (libmspti.so), opened at run time.
//
// msprof's collection on the simulator reads the same seam msPTI reads (libprofapi's reports and
// the driver's profiling channels) by using msPTI itself: one timing path, so every row msprof
// exports is an msPTI record of the same run. As with CANN, only one profiler can own the seam's
// subscription at a time: while a program (or npu-sim trace) holds msPTI's subscriber, aclprofStart
// fails with ACL_ERROR_PROF_API_CONFLICT.
#pragma once

#include <cstdint>
#include <string>

namespace npusim::msprof {

// Receives every record msPTI delivers while a collection runs (on msPTI's delivering thread).
using RecordSink = void (*)(const void* record);

// Receives, for each KERNEL record msPTI writes, the task id and device counts it was matched on
// (the key of a task's AI Core PMU records) and the blockDim its task track reported (0: none), on
// msPTI's writing thread.
using KernelTaskSink = void (*)(const void* kernel_record, uint32_t task_id, uint64_t start_count, uint64_t end_count,
                                uint32_t block_dim);

// Receives each node basic info CANN reports (the blockDim a node launch's kernel ran with), on the
// reporting thread: its thread, its time in msPTI's clock (the node launch's end) and the values.
using NodeInfoSink = void (*)(uint32_t thread_id, uint64_t time, uint32_t block_dim, uint32_t task_type);

// The msPTI activity kinds one collection enables, from aclprofCreateConfig's data-type switches.
struct KindSet {
    bool kernel = false;         // KERNEL, MEMCPY, MEMSET (task time)
    bool communication = false;  // HCCL, COMMUNICATION (task time or HCCL trace)
    bool acl_api = false;        // ACL_API
    bool node_api = false;       // NODE_API (the launches the device tasks' flows start from)
    bool runtime_api = false;    // RUNTIME_API
    bool memory = false;         // MEMORY (task memory: the device allocations and releases)
};

KindSet kinds_for(uint64_t data_type_config);

// Loads libmspti.so (next to this library, then the installed package's mspti_core/lib64, then the
// loader's search path). Returns false with `error` filled when it cannot.
bool load_mspti(std::string* error);

// Subscribes, registers the buffer callbacks (once per process) and enables `kinds`. Returns an
// aclError (ACL_SUCCESS, ACL_ERROR_PROF_API_CONFLICT when another subscriber holds msPTI,
// ACL_ERROR_PROFILING_FAILURE otherwise) and fills `error`.
// `task_sink` (may be nullptr): told the task of each KERNEL record, when the loaded msPTI can tell;
// with `tasks_required` (AI Core metrics, which are joined on the task) ACL_ERROR_PROFILING_FAILURE when
// it cannot (not the simulator's msPTI), otherwise Task ID and the tracks' Block Num stay unknown.
// `node_sink` (may be nullptr): told each node basic info, when the loaded msPTI can tell (not another
// msPTI: then Block Num stays unknown).
int start_collection(const KindSet& kinds, RecordSink sink, KernelTaskSink task_sink, bool tasks_required,
                     NodeInfoSink node_sink, std::string* error);

// msPTI's clock (msptiGetTimestamp, the clock of its records); 0 before load_mspti succeeded.
uint64_t mspti_now();

// Disables the kinds, unsubscribes and flushes: every record of issued work is delivered to the
// sink before this returns.
void stop_collection();

}  // namespace npusim::msprof
