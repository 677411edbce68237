// KERNEL records: joins the host half of a kernel (the task track CANN reports
// when the kernel is launched: type, name, correlation id) with its device half
// (the STARS start and end logs of the same task) by the task key. Asynchronous
// copies and fills are stream tasks with STARS logs too: their tracks
// (reports/copy_tasks.h) are joined the same way and give MEMCPY and MEMSET records;
// everything said of kernels below holds for them, counted under their kind.
//
// Tracks wait per key in launch order. A device start or end that arrives
// without a track (not a kernel, or - against CANN's ordering - a track still
// on its way) is kept for a short while and joined when a track whose launch
// precedes it arrives; otherwise it is forgotten, because most such tasks are
// not kernels at all, and even a kernel task's (STARS taskType AI core or AI
// CPU) is not counted as dropped: it may be an execution of a graph whose
// tracks were reported before msPTI subscribed, a record never owed
// (docs/reliability.md, fault matrix with device accounting). Graph tasks (aging 0) stay and produce a record per
// execution, until an ordinary task is reported with the same key: their model
// is gone and its stream id (or, on chips whose logs carry no stream, the task
// id) belongs to new work, so a device start after that launch is the new
// task's.
//
// Host halves whose device half is lost (records corrupted or dropped on the
// channel) are counted as dropped KERNEL records and freed while the channel
// collects, so that produced = delivered + dropped holds at every FlushAll:
//  - ordering: a stream runs its tasks in order, so once a later ordinary kernel
//    of the same stream has ended, an earlier one still waiting will get no
//    device half (ExpireLost and Sweep);
//  - age: for the last kernels of a stream, which nothing later overtakes, a
//    host half older than kLostAfterNs behind the device clock at a flush that
//    read everything the driver held (ExpireLost).
// Graph tasks are never counted: they give a record per execution, not per
// launch. Used only under the device-data mutex.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mspti/mspti_activity.h"
#include "device/stream_task_id.h"
#include "device/task_queues.h"
#include "reports/task_track_queue.h"

namespace mspti::seam {

// Not msPTI's API: the simulated CANN's libmsprofiler learns, for each KERNEL record written, the
// task id and device counts it was matched on (npusim_mspti_observe_kernel_tasks, activity_api.cpp),
// the key msprof joins a task's AI Core PMU records on, and the blockDim the task's track reported
// (MsprofKernelInfo.numBlocks; 0: none), msprof's Block Num. Called on the writing thread; nullptr: none.
using KernelTaskObserver = void (*)(const void* kernel_record, uint32_t task_id, uint64_t start_count,
                                    uint64_t end_count, uint32_t block_dim);
void SetKernelTaskObserver(KernelTaskObserver observer);

class KernelMatcher {
public:
    void AddTracks(const TrackEvent* tracks, size_t count);
    void AddCopyTrack(const CopyTrackEvent& copy);  // an asynchronous copy or fill
    // A task's device start and end, parsed one after the other: the same as OnTask(start) then
    // OnTask(end), with one lookup when the task's oldest track waits for both.
    void OnSpan(uint32_t device, uint32_t stream, uint32_t task, uint64_t start_count, uint64_t end_count);
    void OnTask(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count) {
        if (start) {
            OnStart(device, TaskKey(device, stream, task), count);
        } else {
            OnEnd(TaskKey(device, stream, task), count);
        }
    }
    // Forgets device halves older than a few seconds; counts the host halves a later task of their
    // stream has overtaken (ordering rule).
    void Sweep(uint64_t now_ns);
    // After a flush that read everything the device's channel held at `flushed_ns` (the device
    // clock, in the records' time base): the ordering rule, and the age rule against `flushed_ns`.
    void ExpireLost(uint32_t device, uint64_t flushed_ns);
    // The device's channel stopped: tracks still waiting can no longer complete (counted as dropped).
    void DropDevice(uint32_t device);
    // After a flush of the device's channel that began at `flush_ns`: an ordinary kernel still waiting
    // although its stream was synchronised after its launch and before the flush is lost (its device
    // half was with the driver, and the flush did not find it).
    void ExpireSynced(uint32_t device, uint64_t flush_ns);

private:
    struct Pending {
        const char* type;
        union {
            const char* name;  // KERNEL: kernel name
            uint64_t bytes;    // MEMCPY, MEMSET: bytes
        };
        uint64_t correlation_id;
        uint64_t launch_ns;  // records' time base
        uint32_t device;
        uint32_t stream;
        uint32_t task;    // decoded task id (the key's), for the stream order
        uint32_t detail;  // MEMCPY: copy kind; MEMSET: value
        uint64_t seq;     // arrival number of the track
        bool graph;
        bool started;
        uint8_t kind;  // msptiActivityKind: KERNEL, MEMCPY or MEMSET
        bool sync;     // MEMCPY, MEMSET: the task of a synchronous call (isAsync 0)
        bool wide;     // 32-bit task ids (chip type 15)
        uint16_t block_dim;  // KERNEL: the blockDim of the track (0: not reported)
        uint64_t start_count;
        uint64_t retired_ns;  // graph task: launch time of the ordinary task that reused its key (0: none)
        msptiActivityKind Kind() const { return static_cast<msptiActivityKind>(kind); }
    };
    struct Orphan {
        uint64_t start_count;
        uint64_t end_count;
        bool ended;
        uint64_t seen_ns;
    };
    // An ordinary kernel of a stream whose device half arrived whole.
    struct Ended {
        uint32_t task;
        uint64_t launch_ns;
        uint64_t seen_seq;  // next_seq_ when its end was parsed: tracks that arrived before have seq < it
    };
    // Per stream: the newest ended kernel, and the newest one that ended before the last expiry pass.
    // Only the latter overtakes: a kernel launched on the stream by another thread may have reported
    // its track and not yet had its device records written when a later one's end is parsed (the
    // simulator writes a task's records at submission, so concurrent launches on one stream can write
    // them out of order); one expiry pass between the end and the drop leaves it that time.
    struct Progress {
        Ended newest;
        Ended settled;  // valid when has_settled
        bool has_settled;
        uint64_t pass;  // expiry pass during which `newest` was noted
    };
    void Add(const TrackEvent& track, msptiActivityKind kind, uint64_t bytes, uint32_t detail, bool sync);
    // A track whose key has device halves waiting: joins the first that is not older. True when that
    // completed an ordinary task (then nothing waits); else `p` waits, started if a start joined it.
    bool JoinOrphans(uint64_t key, Pending& p);
    void AppendTrack(uint64_t key, const Pending& p);
    // Marks the graph tasks waiting in `slot` as retired by an ordinary launch at `launch_ns`.
    void RetireGraphTasksAt(size_t slot, uint64_t launch_ns);
    // A device start or end of the task `key`: the common case (its track waits) here, the rest in
    // the out-of-line helpers.
    void OnStart(uint32_t device, uint64_t key, uint64_t count);
    void OnEnd(uint64_t key, uint64_t count);
    void StartWithoutTrack(uint64_t key, uint64_t count);
    void EndWithoutStart(uint64_t key, uint64_t count);
    // The stream's progress node, made if needed (`made`), when the one-entry cache missed; caches it.
    uint32_t NewProgressNode(uint64_t stream_key, bool* made);
    void Emit(const Pending& p, uint64_t start_count, uint64_t end_count);
    void EmitCopy(const Pending& p, uint64_t start, uint64_t end);  // MEMCPY or MEMSET, times converted
    uint64_t KeyOf(const TrackEvent& track, uint32_t* stream, uint32_t* task, bool* wide) const;
    void RetireGraphTasks(uint64_t key, uint64_t launch_ns);
    void NoteEnded(const Pending& p);
    bool Overtaken(const Pending& p) const;
    // Counts as dropped and frees the waiting ordinary kernels (of `device`, or of every device when
    // `all_devices`) that a later task of their stream overtook or that launched before `lost_before_ns`.
    void DropLost(uint32_t device, bool all_devices, uint64_t lost_before_ns);

    TaskQueues<Pending> pending_;
    TaskQueues<Orphan> orphans_;
    TaskQueues<Progress> progress_;  // one node per stream key (device, stream, 0)
    // No stream key (their task bits are 0): the cache is empty.
    static constexpr uint64_t kNoStreamKey = UINT64_MAX;
    // The last stream whose progress node was looked up, and the node. Progress nodes are removed only
    // by DropDevice, which empties the cache.
    uint64_t progress_cached_key_ = kNoStreamKey;
    uint32_t progress_cached_node_ = 0;
    uint64_t next_seq_ = 1;
    uint64_t pass_ = 0;  // expiry passes (DropLost calls) so far
};

}  // namespace mspti::seam
