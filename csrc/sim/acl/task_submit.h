// The one path by which every device task is submitted: schedule it on its
// stream, report its host half (the task track) while the profiler wants
// task times, and only then let the device emit its logs, so a profiler
// always sees the host half of a task before its device records. Work issued to
// a capturing stream is recorded instead (capture.h).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <utility>

#include "acl/api_ids.h"
#include "acl/capture.h"
#include "acl/prof_reporter.h"
#include "core/device.h"
#include "core/launch_hint.h"
#include "core/memory.h"
#include "core/platform.h"

namespace acl {

// `kernel_hash` is called only when a task track is reported (kernels hash their name lazily).
// A mixed kernel runs as an FFTS+ task: a cube and a vector sub-task.
inline uint16_t ffts_subtasks(const npusim::TaskDesc& desc) {
    return desc.kind == npusim::TaskKind::Kernel && desc.core == npusim::CoreType::MIX ? 2 : 0;
}

// Work issued to a stream held behind an HCCL collective whose peers have not all arrived
// (stream_queue.h): the task takes its id, submission time and jitter draw now and reports its
// host half (the task track) at the call, as CANN's runtime does at issue; it is placed, its
// device logs emitted and `placed(record)` called (its effect on memory, the host function it
// runs, an event's time) once the stream reaches it, on the thread that releases the hold. The
// caller returns at once; only synchronisation waits for the stream. `adjust` completes the
// description at placement (an event wait learns then the time it waits for).
struct NoAdjust {
    void operator()(npusim::TaskDesc&) const {}
};

template <typename HashFn, typename Placed, typename Adjust = NoAdjust>
void defer_task(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc, TaskType type,
                HashFn&& kernel_hash, Placed&& placed, Adjust adjust = Adjust()) {
    const npusim::TaskReservation res = device.reserve(stream);
    if (prof::task_time_on(device.id())) {
        npusim::TaskRecord track;
        track.device = device.id();
        track.stream_id = stream.id();
        track.task_id = res.task_id;
        track.submit_ns = res.submit_ns;
        prof::report_task_track(track, type, kernel_hash(), desc.track_blocks);
    }
    auto place = [&device, &stream, desc = npusim::TaskDesc(desc), res, placed = std::forward<Placed>(placed),
                  adjust]() mutable {
        adjust(desc);
        const npusim::TaskRecord rec = device.schedule_reserved(stream, desc, res);
        device.emit_task_logs(rec, desc.stars_task_type, ffts_subtasks(desc));
        device.emit_pmu(rec, desc);
        placed(rec);
    };
    if (!stream.queue().defer(place)) place();  // released meanwhile: placed now, in order
}

// Stream work that cannot be captured runs at once (and invalidates a capture on its stream).
template <typename HashFn>
npusim::TaskRecord submit_task(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc,
                               TaskType type, HashFn&& kernel_hash) {
    if (capture::any_capturing()) capture::invalidate_if_capturing(stream);
    const npusim::TaskRecord rec = device.schedule(stream, desc);
    if (prof::task_time_on(device.id())) prof::report_task_track(rec, type, kernel_hash(), desc.track_blocks);
    device.emit_task_logs(rec, desc.stars_task_type, ffts_subtasks(desc));
    device.emit_pmu(rec, desc);
    return rec;
}

// Capturable stream work (kernels, asynchronous copies and fills, host functions): recorded on a
// capturing stream, otherwise run: the task is submitted, then `effect` (what it does to memory,
// or the host function it calls) happens at once. `touched`: the buffers the effect reads or
// writes; work queued behind a held stream pins those the simulator allocated until it has run
// (MemoryRegistry::pin_all), since a synchronisation that fails meanwhile returns at once and the
// application may then free them. (Pageable host memory, which the simulator did not allocate,
// stays the application's to keep.)
template <typename HashFn, typename Effect>
aclError issue_task(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc, TaskType type,
                    HashFn&& kernel_hash, Effect&& effect, std::initializer_list<const void*> touched = {}) {
    if (capture::any_capturing()) {
        aclError rc = ACL_SUCCESS;
        switch (capture::offer(device, stream, desc, type, kernel_hash(), ffts_subtasks(desc),
                               std::function<void()>(effect), &rc)) {
            case capture::Disposition::Recorded: return ACL_SUCCESS;
            case capture::Disposition::Refused: return rc;
            case capture::Disposition::Run: break;
        }
    }
    if (!stream.queue().idle()) {
        npusim::note_deferred_launch(&stream);  // an operator that issued it computes its result behind it too
        defer_task(device, stream, desc, type, std::forward<HashFn>(kernel_hash),
                   [effect = std::forward<Effect>(effect),
                    pins = npusim::Platform::instance().memory().pin_all(touched)](const npusim::TaskRecord&) mutable {
                       effect();
                       pins.clear();  // the memory of a buffer freed meanwhile goes back now
                   });
        return ACL_SUCCESS;
    }
    (void)submit_task(device, stream, desc, type, std::forward<HashFn>(kernel_hash));
    effect();
    return ACL_SUCCESS;
}

inline npusim::TaskRecord submit_task(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc,
                                      TaskType type) {
    return submit_task(device, stream, desc, type, [] { return uint64_t(0); });
}

// A synchronous copy or fill: CANN's runtime runs it as a memcpy task too and reports it like an
// asynchronous one (the caller reports a copy's memcpy info first): its task track on the calling
// thread and the device's STARS logs, so a profiler that did not interpose the call still learns
// of it. The task ran inside the call, from `start_ns` to `end_ns` (host and device share the
// simulator's clock); it is no stream work: it takes a task id of the device's default stream but
// no place on that stream's timeline, and waits for nothing.
inline void report_call_task(npusim::Device& device, uint64_t start_ns, uint64_t end_ns, TaskType type) {
    // Only while a profiler collects task times: otherwise the default stream's task ids stay as
    // they were (nobody could join the halves).
    if (!prof::task_time_on(device.id())) return;
    npusim::Stream& stream = *device.default_stream();
    npusim::TaskRecord rec;
    rec.device = device.id();
    rec.stream_id = stream.id();
    rec.task_id = device.reserve_task_id(stream);
    rec.submit_ns = start_ns;
    rec.start_ns = start_ns;
    rec.end_ns = end_ns < start_ns ? start_ns : end_ns;
    prof::report_task_track(rec, type, 0);
    device.emit_task_logs(rec, stars::kSdma);
}

// A non-kernel task of the given kind and duration.
inline npusim::TaskDesc plain_task(npusim::TaskKind kind, uint64_t duration_ns, uint16_t stars_type,
                                   uint64_t not_before_ns = 0) {
    npusim::TaskDesc desc;
    desc.kind = kind;
    desc.duration_ns = duration_ns;
    desc.not_before_ns = not_before_ns;
    desc.stars_task_type = stars_type;
    return desc;
}

}  // namespace acl
