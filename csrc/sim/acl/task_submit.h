// The one path by which every device task is submitted: schedule it on its
// stream, report its host half (the task track) while the profiler wants
// task times, and only then let the device emit its logs, so a profiler
// always sees the host half of a task before its device records.
#pragma once

#include <cstdint>

#include "acl/api_ids.h"
#include "acl/prof_reporter.h"
#include "core/device.h"

namespace acl {

// `kernel_hash` is called only when a task track is reported (kernels hash their name lazily).
template <typename HashFn>
npusim::TaskRecord submit_task(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc,
                               TaskType type, HashFn&& kernel_hash) {
    const npusim::TaskRecord rec = device.schedule(stream, desc);
    if (prof::task_time_on(device.id())) prof::report_task_track(rec, type, kernel_hash());
    // A mixed kernel runs as an FFTS+ task: a cube and a vector sub-task.
    const bool mixed = desc.kind == npusim::TaskKind::Kernel && desc.core == npusim::CoreType::MIX;
    device.emit_task_logs(rec, desc.stars_task_type, mixed ? 2 : 0);
    return rec;
}

inline npusim::TaskRecord submit_task(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc,
                                      TaskType type) {
    return submit_task(device, stream, desc, type, [] { return uint64_t(0); });
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
