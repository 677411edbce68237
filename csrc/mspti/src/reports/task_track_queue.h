// Hands host task tracks from the application threads (inside CANN's launch
// calls) to the device-data parser without a shared lock: every reporting
// thread owns a single-producer ring, and the parser (one at a time, under the
// device-data mutex) is its only consumer. Drained before device data is
// parsed, so a task's host half is always known when its device half is
// matched.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mspti/mspti_activity.h"

namespace mspti::seam {

// The names stay ids here: the reader resolves them (cann/name_cache.h), not the launching thread.
struct TrackEvent {
    uint64_t correlation_id;
    uint64_t host_ts;      // CANN host time of the track
    uint64_t name_hash;    // the kernel name's hash id (0: none)
    uint32_t type_id;      // the runtime's task type (level 5000)
    uint32_t task_info;    // raw task id field
    uint16_t device;
    uint16_t stream;       // raw stream id
    uint16_t aging;        // 0: graph task, executed again and again; 1: ordinary (CANN's aging flag, as 0 or 1)
    uint16_t num_blocks;   // a kernel's blockDim (the track's MsprofKernelInfo; 0: not reported)
};

// The track of an asynchronous copy or fill (reports/copy_tasks.h): the task's track and the fields
// of its MEMCPY or MEMSET record. On rings of their own, so that a kernel's track stays as it is.
struct CopyTrackEvent {
    TrackEvent track;          // name_hash unused
    uint64_t bytes;
    msptiActivityKind kind;    // MEMCPY or MEMSET
    uint32_t detail;           // MEMCPY: msptiActivityMemcpyKind; MEMSET: value
    bool sync;                 // the task of a synchronous call (aclrtMemcpy, aclrtMemcpy2d, aclrtMemset)
};

// Queues a track from the calling thread. If the thread's ring is full, the
// caller drains every ring itself (under the device-data mutex); what still
// finds no room is counted as a dropped record.
// A kernel's track is written in place, in two steps: BeginTrack gives the
// ring's free slot (nullptr: no room, already counted), which the caller fills
// and EndTrack then publishes to the reader.
TrackEvent* BeginTrack();
// BeginTrack's common case alone (no call): nullptr, with nothing counted, before the thread's ring
// exists or while it is full.
TrackEvent* TryBeginTrack();
void EndTrack();
void PushCopyTrack(const CopyTrackEvent& event);

// A batch of events taken from the rings.
template <typename Event>
struct EventSpan {
    const Event* data;
    size_t size;
    const Event* begin() const { return data; }
    const Event* end() const { return data + size; }
};

// Takes every queued track, oldest first per thread, into a batch that stays valid until the next
// call (the caller walks it: no call through a function object per track). Requires the device-data
// mutex.
EventSpan<TrackEvent> TakeTracks();
EventSpan<CopyTrackEvent> TakeCopyTracks();

// fork(), in the child: the queued tracks are the parent's and are discarded; the rings of the
// threads that fork did not copy are released once empty.
void ForgetTracksAfterFork();

}  // namespace mspti::seam
