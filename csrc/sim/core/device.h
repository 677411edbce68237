// The timing and execution model of one simulated Ascend device: streams that
// run their tasks in order, cores that tasks occupy by blockDim, events that
// order streams, and the device records each task leaves on the profiling
// channels (STARS task logs on channel 50, step traces on channel 44, AI Core PMU
// records on channel 53).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/catalogue.h"
#include "core/export.h"
#include "core/stream_queue.h"

namespace npusim {

class ChannelHub;
class Clock;

enum class TaskKind : uint8_t {
    Kernel,
    Memcpy,
    Memset,
    EventRecord,
    EventWait,
    ProfTrace,
    HostFunc,
    Notify,
    Collective
};

// The terms of a kernel's modelled time (Device::kernel_time): its body plus the fixed device
// overhead; within the body, the compute and the memory time, which overlap (the roofline's body is
// the larger; an operator's own model, e.g. aclnn's matmul, names its terms; a fixed-duration cost
// entry has none). The AI Core PMU records split the task into pipes by these terms (Device::emit_pmu).
struct KernelTime {
    uint64_t body_ns = 0;
    uint64_t compute_ns = 0;   // the cube or vector work of the cores the launch occupies
    uint64_t memory_ns = 0;    // bytes over the HBM bandwidth
    uint64_t overhead_ns = 0;  // the SoC's per-kernel device overhead (task_overhead_ns)
    uint64_t bytes = 0;        // the bytes the memory term moves (reads and writes, not told apart)
    ComputeDtype dtype = ComputeDtype::Fp16;  // what the compute term computes in
    uint64_t total_ns() const { return body_ns + overhead_ns; }
};

// What the runtime asks the device to run.
struct TaskDesc {
    TaskKind kind = TaskKind::Kernel;
    CoreType core = CoreType::AIV;  // kernels only
    uint32_t block_dim = 1;         // cores a kernel occupies (capped at the SoC's count)
    uint64_t duration_ns = 0;       // modelled device time, before jitter
    uint64_t not_before_ns = 0;     // earliest device start (event waits)
    // A collective begins when its stream reaches it and waits inside the task until every rank's
    // stream has: its work (duration_ns) starts no earlier than this device time.
    uint64_t work_not_before_ns = 0;
    uint16_t stars_task_type = 0;   // taskType field of the STARS log header
    // The blockDim the task's runtime track carries (MsprofKernelInfo.numBlocks, a 16-bit field): set where
    // an AI Core or AI Vector kernel is launched, 0 for every other task (AI CPU kernels included), as
    // CANN's runtime fills it. Set with the launch, where the block count is at hand, so that a traced
    // launch only copies it into its report.
    uint16_t track_blocks = 0;
    KernelTime pipes;               // kernels: the terms of duration_ns (for the PMU records)
};

// When and where a task ran, as the runtime reports it and the channels record it.
struct TaskRecord {
    uint32_t device = 0;
    uint16_t stream_id = 0;
    uint32_t task_id = 0;
    uint64_t submit_ns = 0;  // host time of submission
    uint64_t start_ns = 0;   // device time
    uint64_t end_ns = 0;
    uint64_t work_ns = 0;    // when the work began after a wait inside the task (0: at start_ns)
};

// What a task issued now but placed later (an HCCL collective, whose start waits for its peers)
// takes at its issue, so that its place does not depend on when it is placed: its task id, its
// host submission time and its jitter draw (the device's random sequence stays in issue order).
struct TaskReservation {
    uint32_t task_id = 0;
    uint64_t submit_ns = 0;
    double jitter_u = 0.5;  // uniform draw in [0, 1); 0.5 is no jitter
};

class NPUSIM_API Stream {
public:
    static constexpr uint16_t kMaxStreams = 2048;  // stream ids stay below 2048 so they decode to themselves

    uint32_t device() const { return device_; }
    uint16_t id() const { return id_; }
    uint32_t priority() const { return priority_; }
    uint32_t flags() const { return flags_; }
    uint64_t tail_ns() const { return tail_ns_.load(std::memory_order_acquire); }
    uint64_t tasks() const { return tasks_.load(std::memory_order_relaxed); }
    // Work issued to the stream that is not placed yet (see stream_queue.h).
    StreamQueue& queue() { return queue_; }

    Stream(uint32_t device, uint16_t id, uint32_t priority, uint32_t flags)
        : device_(device), id_(id), priority_(priority), flags_(flags) {}

private:
    friend class Device;
    uint32_t device_;
    uint16_t id_;
    uint32_t priority_, flags_;
    std::atomic<uint64_t> tail_ns_{0};  // device time at which the last queued task ends
    std::atomic<uint64_t> tasks_{0};
    uint32_t next_task_id_ = 0;
    StreamQueue queue_;
};

class NPUSIM_API Device {
public:
    Device(uint32_t id, const SocSpec& soc, uint64_t seed, double jitter_pct, Clock& clock, ChannelHub& channels);
    ~Device();

    uint32_t id() const { return id_; }
    const SocSpec& soc() const { return soc_; }
    bool wide_task_ids() const { return soc_.chip_type == 15; }  // Ascend 950 logs carry 32-bit task ids

    // Streams. Handles stay valid until destroy_stream; ids are reused after destruction.
    Stream* default_stream() { return streams_[0].load(std::memory_order_acquire); }
    Stream* create_stream(uint32_t priority, uint32_t flags);  // nullptr when all ids are in use
    bool destroy_stream(Stream* stream);                       // false for the default stream or a stranger
    Stream* stream_by_id(uint16_t id) const;
    std::vector<Stream*> streams() const;

    // The earliest device time a task submitted now could start on `stream` (ignoring cores):
    // what ranks of a collective exchange so that it starts when every rank's stream reaches it.
    uint64_t earliest_start(const Stream& stream) const;
    // The same for a task submitted at host time `submit_ns` (a reserved task placed later).
    uint64_t earliest_start(const Stream& stream, uint64_t submit_ns) const;
    // Schedules a task on a stream and returns where it runs; nothing is emitted yet,
    // so the runtime can report the task's host half first. The runtime queues work issued to a
    // held stream behind the hold instead (acl/task_submit.h); a caller that reaches this with the
    // stream held (a model execution) waits until the stream is settled.
    TaskRecord schedule(Stream& stream, const TaskDesc& desc);
    // Reserves the next task of `stream` at its issue (now): task id, submission time, jitter draw.
    TaskReservation reserve(Stream& stream);
    // Places a reserved task; does not wait for the stream's queue (the caller holds its turn).
    TaskRecord schedule_reserved(Stream& stream, const TaskDesc& desc, const TaskReservation& reservation);
    // Takes the task id the next task on `stream` would get, without scheduling anything: a
    // captured (graph) task keeps the id it was given at capture for every execution.
    uint32_t reserve_task_id(Stream& stream);
    // Emits the STARS begin/end logs of a scheduled task on channel 50 (if started). An FFTS+ task
    // (a mixed kernel, a collective) also logs `ffts_subtasks` sub-task begin/end pairs that split
    // its span (the part after an in-task wait, TaskRecord::work_ns); chip type 15 logs carry no sub-tasks.
    void emit_task_logs(const TaskRecord& task, uint16_t stars_task_type, uint16_t ffts_subtasks = 0);
    // Emits the AI Core PMU records of a scheduled kernel on channel 53 (if started; chip types 5 and
    // 7): one ContextPmu per task, two for a mixed kernel (its cube and vector contexts), counting
    // the events programmed at the channel's start (program_pmu) from the kernel's time terms.
    void emit_pmu(const TaskRecord& task, const TaskDesc& desc);
    // The PMU events channel 53's records count on the cube and the vector cores (the config block a
    // profiler passes when it starts the channel); events the model does not count count 0.
    void program_pmu(const uint16_t* aic_events, const uint16_t* aiv_events);
    // Whether the model counts a PMU event (msprof's numbering) from a kernel's time terms; the
    // others count 0 on every record, so what msprof derives from them only is not modelled.
    static bool pmu_event_counted(uint16_t event);
    // Emits one TS step trace on channel 44 (if started), stamped at the task's start.
    void emit_step_trace(const TaskRecord& task, uint64_t index_id, uint64_t model_id, uint16_t tag_id);

    // Cost model.
    KernelTime kernel_time(const KernelCost& cost, CoreType core, uint32_t block_dim) const;
    uint64_t kernel_duration_ns(const KernelCost& cost, CoreType core, uint32_t block_dim) const {
        return kernel_time(cost, core, block_dim).total_ns();
    }
    uint64_t host_link_ns(uint64_t bytes) const;   // one direction over the host link
    uint64_t device_copy_ns(uint64_t bytes) const; // device memory to device memory
    uint64_t memset_ns(uint64_t bytes) const;

    // Device memory accounting against the SoC's capacity.
    bool reserve_memory(uint64_t bytes);
    void release_memory(uint64_t bytes);
    uint64_t memory_in_use() const { return memory_in_use_.load(); }

    // Latest end over all streams (aclrtSynchronizeDevice).
    uint64_t busy_until_ns() const;
    // Waits until no stream of the device holds unplaced work; returns (and clears) the first
    // error a stream's held work left (0: none).
    int32_t settle();
    // The same within `ms` milliseconds of host time (for all streams together); false when a
    // stream still holds unplaced work then (its peers did not come), `error` as settle() returns.
    bool settle_for(int64_t ms, int32_t& error);

private:
    uint64_t jittered(uint64_t ns);
    double draw_uniform();
    uint64_t apply_jitter(uint64_t ns, double u) const;
    TaskRecord place(Stream& stream, const TaskDesc& desc, uint64_t submit_ns, uint64_t duration, uint32_t task_id);
    uint64_t acquire_cores(std::vector<uint64_t>& cores, uint32_t count, uint64_t ready, uint64_t duration);

    uint32_t id_;
    const SocSpec& soc_;
    Clock& clock_;
    ChannelHub& channels_;
    double jitter_pct_;
    uint64_t rng_;

    mutable std::mutex mutex_;  // scheduling state below
    std::vector<uint64_t> cube_free_, vector_free_, aicpu_free_;
    std::array<std::atomic<Stream*>, Stream::kMaxStreams> streams_{};
    std::vector<std::unique_ptr<Stream>> owned_;  // every stream ever made; freed with the device
    std::atomic<uint64_t> memory_in_use_{0};
    uint32_t next_wide_task_id_ = 0;
    static constexpr size_t kPmuCounters = 8;
    std::array<std::atomic<uint16_t>, kPmuCounters> aic_events_{},
        aiv_events_{};  // chip type 15: one task-id space per device (its logs carry no stream)
};

}  // namespace npusim
