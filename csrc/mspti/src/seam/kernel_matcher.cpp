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
              stream, track.aging == 0, false, 0};
    auto orphans = orphans_.find(key);
    if (orphans != orphans_.end()) {
        auto& q = orphans->second;
        while (!q.empty()) {
            const Orphan o = q.front();
            q.pop_front();
            const uint64_t device_start = device_time::ToRecordTime(track.device, o.start_count);
            if (device_start + kCausalitySlackNs < p.launch_ns) continue;  // an older task with the same key
            if (o.ended) {
                Emit(p, o.start_count, o.end_count);
                if (!p.graph) {
                    if (q.empty()) orphans_.erase(orphans);
                    return;
                }
            } else {
                p.started = true;
                p.start_count = o.start_count;
            }
            break;
        }
        if (q.empty()) orphans_.erase(key);
    }
    pending_[key].push_back(p);
}

void KernelMatcher::OnTask(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count) {
    const uint64_t key = TaskKey(device, stream, task);
    auto it = pending_.find(key);
    if (start) {
        if (it != pending_.end()) {
            for (Pending& p : it->second) {
                if (!p.started) {
                    p.started = true;
                    p.start_count = count;
                    return;
                }
            }
        }
        orphans_[key].push_back(Orphan{count, 0, false, host_clock::Now()});
        return;
    }
    if (it != pending_.end()) {
        auto& q = it->second;
        for (auto p = q.begin(); p != q.end(); ++p) {
            if (!p->started) continue;
            Emit(*p, p->start_count, count);
            if (p->graph) {
                p->started = false;
            } else {
                q.erase(p);
                if (q.empty()) pending_.erase(it);
            }
            return;
        }
    }
    auto o = orphans_.find(key);
    if (o != orphans_.end()) {
        for (Orphan& orphan : o->second) {
            if (!orphan.ended) {
                orphan.ended = true;
                orphan.end_count = count;
                return;
            }
        }
    }
    if (it != pending_.end() && !it->second.empty() && !it->second.front().graph) {
        // An end for a launched kernel whose start was lost (e.g. the channel started mid-task).
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL);
        it->second.pop_front();
        if (it->second.empty()) pending_.erase(it);
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
    for (auto it = orphans_.begin(); it != orphans_.end();) {
        auto& q = it->second;
        while (!q.empty() && q.front().seen_ns + kOrphanLifetimeNs < now_ns) q.pop_front();
        it = q.empty() ? orphans_.erase(it) : std::next(it);
    }
}

void KernelMatcher::DropDevice(uint32_t device) {
    for (auto it = pending_.begin(); it != pending_.end();) {
        if ((it->first >> 48) != (device & 0xFFFFU)) {
            ++it;
            continue;
        }
        for (const Pending& p : it->second) {
            if (!p.graph) activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL);
        }
        it = pending_.erase(it);
    }
    for (auto it = orphans_.begin(); it != orphans_.end();) {
        it = (it->first >> 48) == (device & 0xFFFFU) ? orphans_.erase(it) : std::next(it);
    }
}

}  // namespace mspti::seam
