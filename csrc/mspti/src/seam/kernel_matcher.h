// KERNEL records: joins the host half of a kernel (the task track CANN reports
// when the kernel is launched: type, name, correlation id) with its device half
// (the STARS start and end logs of the same task) by the task key.
//
// Tracks wait per key in launch order. A device start or end that arrives
// without a track (not a kernel, or - against CANN's ordering - a track still
// on its way) is kept for a short while and joined when a track whose launch
// precedes it arrives; otherwise it is forgotten, because most such tasks are
// not kernels at all. Graph tasks (aging 0) stay and produce a record per
// execution, until an ordinary task is reported with the same key: their model
// is gone and its stream id (or, on chips whose logs carry no stream, the task
// id) belongs to new work, so a device start after that launch is the new
// task's. Used only under the device-data mutex.
#pragma once

#include <cstdint>

#include "seam/task_queues.h"
#include "seam/task_track_queue.h"

namespace mspti::seam {

class KernelMatcher {
public:
    void AddTrack(const TrackEvent& track);
    void OnTask(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count);
    // Forgets device halves older than a few seconds.
    void Sweep(uint64_t now_ns);
    // The device's channel stopped: tracks still waiting can no longer complete (counted as dropped).
    void DropDevice(uint32_t device);

private:
    struct Pending {
        const char* type;
        const char* name;
        uint64_t correlation_id;
        uint64_t launch_ns;  // records' time base
        uint32_t device;
        uint32_t stream;
        bool graph;
        bool started;
        uint64_t start_count;
        uint64_t retired_ns;  // graph task: launch time of the ordinary task that reused its key (0: none)
    };
    struct Orphan {
        uint64_t start_count;
        uint64_t end_count;
        bool ended;
        uint64_t seen_ns;
    };
    void Emit(const Pending& p, uint64_t start_count, uint64_t end_count);
    uint64_t KeyOf(const TrackEvent& track, uint32_t* stream) const;
    void RetireGraphTasks(uint64_t key, uint64_t launch_ns);

    TaskQueues<Pending> pending_;
    TaskQueues<Orphan> orphans_;
};

}  // namespace mspti::seam
