#include "seam/kernel_matcher.h"

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/host_clock.h"
#include "seam/device_registry.h"
#include "seam/device_time.h"
#include "seam/host_time.h"
#include "seam/stream_task_id.h"

namespace mspti::seam {
namespace {

constexpr uint64_t kOrphanLifetimeNs = 2'000'000'000ULL;
// Device and host clocks are aligned only to within the reference measurement.
constexpr uint64_t kCausalitySlackNs = 1'000'000ULL;
constexpr uint32_t kNil = TaskQueues<int>::kNil;

}  // namespace

uint64_t KernelMatcher::KeyOf(const TrackEvent& track, uint32_t* stream) const {
    const uint32_t chip = devices::Chip(track.device);
    const StreamTask decoded = DecodeStreamTask(track.stream, static_cast<uint16_t>(track.task_info & 0xFFFFU));
    *stream = decoded.stream;
    if (devices::IsV6(chip)) return TaskKey(track.device, 0, track.task_info);
    return TaskKey(track.device, decoded.stream, decoded.task);
}

void KernelMatcher::AddTrack(const TrackEvent& track) {
    uint32_t stream = 0;
    const uint64_t key = KeyOf(track, &stream);
    Pending p{track.type, track.name, track.correlation_id, host_time::ToRecordTime(track.host_ts), track.device,
              stream, track.aging == 0, false, 0, 0};
    if (!p.graph) RetireGraphTasks(key, p.launch_ns);
    for (uint32_t n = orphans_.Front(key); n != kNil; n = orphans_.Front(key)) {
        const Orphan o = orphans_.At(n);
        orphans_.PopFront(key);  // a queue left empty removes its key
        const uint64_t device_start = device_time::ToRecordTime(track.device, o.start_count);
        if (device_start + kCausalitySlackNs < p.launch_ns) continue;  // an older task with the same key
        if (o.ended) {
            Emit(p, o.start_count, o.end_count);
            if (!p.graph) return;
        } else {
            p.started = true;
            p.start_count = o.start_count;
        }
        break;
    }
    pending_.PushBack(key, p);
}

void KernelMatcher::RetireGraphTasks(uint64_t key, uint64_t launch_ns) {
    for (uint32_t n = pending_.Front(key); n != kNil; n = pending_.Next(n)) {
        Pending& p = pending_.At(n);
        if (p.graph && p.retired_ns == 0) p.retired_ns = launch_ns;
    }
}

void KernelMatcher::OnTask(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count) {
    const uint64_t key = TaskKey(device, stream, task);
    if (start) {
        uint64_t device_start = 0;  // converted only when a retired graph task is in the way
        for (uint32_t prev = kNil, n = pending_.Front(key); n != kNil;) {
            Pending& p = pending_.At(n);
            const uint32_t next = pending_.Next(n);
            if (p.retired_ns != 0 && !p.started) {
                if (device_start == 0) device_start = device_time::ToRecordTime(device, count);
                // A start after the launch that retired the graph task belongs to that new task.
                if (device_start >= p.retired_ns) {
                    pending_.Remove(key, prev, n);  // an emptied queue removes its key; `next` is then kNil
                    n = next;
                    continue;
                }
            }
            prev = n;
            n = next;
            if (!p.started) {
                p.started = true;
                p.start_count = count;
                return;
            }
        }
        orphans_.PushBack(key, Orphan{count, 0, false, host_clock::Now()});
        return;
    }
    for (uint32_t prev = kNil, n = pending_.Front(key); n != kNil; prev = n, n = pending_.Next(n)) {
        Pending& p = pending_.At(n);
        if (!p.started) continue;
        Emit(p, p.start_count, count);
        if (p.graph) {
            p.started = false;
        } else {
            pending_.Remove(key, prev, n);
        }
        return;
    }
    for (uint32_t n = orphans_.Front(key); n != kNil; n = orphans_.Next(n)) {
        Orphan& orphan = orphans_.At(n);
        if (!orphan.ended) {
            orphan.ended = true;
            orphan.end_count = count;
            return;
        }
    }
    const uint32_t front = pending_.Front(key);
    if (front != kNil && !pending_.At(front).graph) {
        // An end for a launched kernel whose start was lost (e.g. the channel started mid-task).
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL);
        pending_.PopFront(key);
    }
}

void KernelMatcher::Emit(const Pending& p, uint64_t start_count, uint64_t end_count) {
    const uint64_t start = device_time::ToRecordTime(p.device, start_count);
    const uint64_t end = device_time::ToRecordTime(p.device, end_count);
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || start == 0 || end == 0) {
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL);
        return;
    }
    msptiActivityKernel record{};
    record.kind = MSPTI_ACTIVITY_KIND_KERNEL;
    record.start = start;
    record.end = end < start ? start : end;
    record.ds.deviceId = p.device;
    record.ds.streamId = p.stream;
    record.correlationId = p.correlation_id;
    record.type = p.type;
    record.name = p.name;
    activity::BufferManager::Instance().Write(record);
}

void KernelMatcher::Sweep(uint64_t now_ns) {
    for (const uint64_t key : orphans_.Keys()) {
        for (uint32_t n = orphans_.Front(key); n != kNil && orphans_.At(n).seen_ns + kOrphanLifetimeNs < now_ns;
             n = orphans_.Front(key)) {
            orphans_.PopFront(key);
        }
    }
}

void KernelMatcher::DropDevice(uint32_t device) {
    const auto on_device = [device](uint64_t key) { return (key >> 48) == (device & 0xFFFFU); };
    for (const uint64_t key : pending_.Keys()) {
        if (!on_device(key)) continue;
        for (uint32_t n = pending_.Front(key); n != kNil; n = pending_.Next(n)) {
            if (!pending_.At(n).graph) activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL);
        }
        pending_.EraseKey(key);
    }
    for (const uint64_t key : orphans_.Keys()) {
        if (on_device(key)) orphans_.EraseKey(key);
    }
}

}  // namespace mspti::seam
