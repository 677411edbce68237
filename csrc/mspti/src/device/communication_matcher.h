// The device half of COMMUNICATION records: collects the device times of each
// operator's tasks (STARS start/end, FFTS+ sub-task start/end) and emits the
// record once the operator is complete on the host (node launch seen) and every
// one of its tasks has ended on the device. start = earliest task (or sub-task)
// start, end = latest task (or sub-task) end.
//
// CANN names a task as communication only when the HCCL API that issued it
// returns, which can be after the device ran it: device times of tasks nobody
// claimed yet are kept for a few seconds and joined when the task is
// registered (if the device ran it after the host reported it). Used only under
// the device-data mutex.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

#include "activity/kinds.h"
#include "reports/communication_tracker.h"

namespace mspti::seam {

class CommunicationMatcher {
public:
    void AddTask(const communication::TaskEvent& task);
    void FinishOp(const communication::OpEvent& op);
    void OnTask(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count) {
        // The common case of a kernel's log, inline: no communication task awaits its device half and
        // none can claim it later.
        if (by_key_.empty() && !activity::Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)) return;
        OnTaskSlow(device, stream, task, start, count);
    }
    void OnSubTask(uint32_t device, uint32_t stream, uint32_t task, uint16_t sub_task, bool start, uint64_t count);
    void DropDevice(uint32_t device);
    void Sweep(uint64_t now_ns);
    // A flush that began at `flush_ns` read everything the device's STARS channel held: an
    // operator whose stream was synchronised after its tasks were issued and before the flush,
    // and that still misses a task's end, lost its device half (a collective that failed on the
    // device has none): it is counted as dropped (DEVICE_HALF_LOST) and forgotten.
    void ExpireSynced(uint32_t device, uint64_t flush_ns);

private:
    struct Task {
        uint64_t key;
        bool started = false;
        bool ended = false;
        uint64_t start = 0;
        uint64_t end = 0;
        bool has_sub = false;
        uint64_t sub_min = 0;
        uint64_t sub_max = 0;
        std::vector<std::pair<uint16_t, uint64_t>> sub_starts;
    };
    // Device times of a task no operator has claimed (yet).
    struct Unclaimed {
        Task times;
        uint64_t seen_ns;
    };
    struct Op {
        uint32_t device = 0;
        uint32_t stream = 0;
        uint64_t issued_ns = 0;  // records' time base: the latest task track of the operator
        std::vector<Task> tasks;
        bool finished = false;
        communication::OpEvent info{};
    };
    void OnTaskSlow(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count);
    Task* OpenTask(uint64_t key, uint64_t* op_id);
    Unclaimed& UnclaimedFor(uint64_t key, bool start);
    static void ApplySub(Task& t, uint16_t sub_task, bool start, uint64_t count);
    void TryEmit(uint64_t op_id);

    std::unordered_map<uint64_t, Op> ops_;
    // Unended tasks per key: (operator, task index), oldest first.
    std::unordered_map<uint64_t, std::deque<std::pair<uint64_t, size_t>>> by_key_;
    std::unordered_map<uint64_t, std::deque<Unclaimed>> unclaimed_;
};

}  // namespace mspti::seam
