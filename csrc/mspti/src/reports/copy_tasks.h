// Asynchronous copies and fills timed on the device. CANN reports an
// asynchronous copy or fill as a stream task: its task track (MEMCPY_ASYNC,
// MEMSET_ASYNC) on the calling thread, for a copy preceded by the runtime's
// memcpy info (5000/801: bytes and copy kind), and the device writes STARS
// begin/end logs for it like for a kernel. msPTI joins the two halves with the
// kernels' matcher (device/kernel_matcher.h), so MEMCPY and MEMSET records of
// asynchronous calls carry the device execution times of the stream task and
// the correlation id of the call however the program reached it (the kernels'
// rule, activity::CorrelationForCopyTrack). Their tracks travel on rings of their
// own (reports/task_track_queue.h), so a kernel's launch pays nothing for them.
//
// The fields of the record come from the program's own arguments when the call
// went through msPTI's interposer (InterposedCall), else from CANN's reports:
// bytes and copy kind from the memcpy info; a fill reached without the
// interposer has bytes 0 and value 0, since no report of the runtime carries them.
// A MEMCPY_ASYNC task that is neither interposed nor announced by a memcpy info is
// not a program's copy (HCCL reports its collectives' tasks under that type): no record.
// Synchronous copies and fills are reported the same way (CANN runs them as
// memcpy tasks inside the call); which kind of call a track belongs to is told
// by the runtime's API report of the call, which follows the track on the same
// thread: the record waits for it (isAsync 0 for a synchronous call). An
// interposed synchronous call keeps its own record, timed around the call
// (interpose/memory_reporter.h), and its track gives none. A copy whose device half cannot
// come (no subscriber, so CANN reports nothing; its device's STARS channel is not
// collecting) keeps the host times of its call when it was interposed.
#pragma once

#include <cstdint>

#include "common/hot_tls.h"
#include "mspti/mspti_activity.h"
#include "seam/profapi.h"

namespace mspti::seam::copies {

// The kind of record a task track of the registered task type `type` stands for: KERNEL (type
// "KERNEL*"), MEMCPY ("MEMCPY_ASYNC"), MEMSET ("MEMSET_ASYNC"), or INVALID.
msptiActivityKind KindOfTaskType(const char* type);

// The msPTI copy kind of the runtime's copy kind (SEAM_RT_MEMCPY_*) in a memcpy info.
msptiActivityMemcpyKind FromRuntimeDirection(uint16_t direction);

// A task track that is not a kernel's, reported by CANN on `info.threadId`: if it is a copy's or a
// fill's, it gets the id of its call (the kernels' rule) and is queued for its device half when its
// kind is on and its device collects.
void OnTaskTrack(uint32_t aging, const MsprofCompactInfo& info, const char* type);

// The runtime's memcpy info, for the next copy track of the reporting thread.
void OnMemcpyInfo(const MsprofCompactInfo& info);

namespace detail {
MSPTI_HOT_TLS inline thread_local bool t_track_waiting = false;  // set and cleared by copy_tasks.cpp only
}  // namespace detail

// Whether a copy or fill track of this thread waits for its call's API report: one thread-local
// load, on every runtime API report.
inline bool Unsettled() { return detail::t_track_waiting; }
// A runtime API report of this thread, registered as `name`: the call of the waiting track.
void OnRuntimeApi(const char* name);

// Brackets an interposed asynchronous copy (MEMCPY: `detail` = msptiActivityMemcpyKind) or fill
// (MEMSET: `detail` = value) on the calling thread: a task track of that kind reported inside the
// call takes these fields.
class InterposedCall {
public:
    // `sync`: a synchronous call, which writes its own record (its track gives none).
    InterposedCall(msptiActivityKind kind, uint32_t detail, uint64_t bytes, bool sync = false);
    ~InterposedCall();
    InterposedCall(const InterposedCall&) = delete;
    InterposedCall& operator=(const InterposedCall&) = delete;
    // Whether a task track of the call was queued: its record will come with the device times.
    bool OnDevice() const;
};

}  // namespace mspti::seam::copies
