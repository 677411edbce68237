// Hands host task tracks from the application threads (inside CANN's launch
// calls) to the device-data parser without a shared lock: every reporting
// thread owns a single-producer ring, and the parser (one at a time, under the
// device-data mutex) is its only consumer. Drained before device data is
// parsed, so a task's host half is always known when its device half is
// matched.
#pragma once

#include <cstdint>
#include <functional>

#include "mspti/mspti_activity.h"

namespace mspti::seam {

// A kernel's track, or a copy's or fill's (seam/copy_tasks.h).
struct TrackEvent {
    uint64_t correlation_id;
    uint64_t host_ts;      // CANN host time of the track
    const char* type;      // registered task type name
    union {
        const char* name;  // kernel name
        uint64_t bytes;    // copy or fill: bytes
    };
    uint32_t task_info;    // raw task id field
    uint16_t device;
    uint16_t stream;       // raw stream id
    uint16_t aging;        // 0: graph task, executed again and again
    uint16_t kind = MSPTI_ACTIVITY_KIND_KERNEL;  // the record the track stands for: KERNEL, MEMCPY, MEMSET
    uint32_t detail = 0;   // copy: msptiActivityMemcpyKind; fill: value; kernel: 0
};
static_assert(sizeof(TrackEvent) == 48, "a track fills one ring slot of 48 bytes");

// Queues a track from the calling thread. If the thread's ring is full, the
// caller drains every ring itself (under the device-data mutex). A track that cannot be queued
// is counted as a dropped record of its kind.
void PushTrack(const TrackEvent& event);

// Calls `sink` for every queued track, oldest first per thread. Requires the device-data mutex.
void DrainTracks(const std::function<void(const TrackEvent&)>& sink);

// fork(), in the child: the queued tracks are the parent's and are discarded; the rings of the
// threads that fork did not copy are released once empty.
void ForgetTracksAfterFork();

}  // namespace mspti::seam
