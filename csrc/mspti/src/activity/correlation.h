// Correlation ids: one id per API call, shared by every record the call causes.
//
//  - An interposed aclrt*/Hccl* call opens a scope: its id is allocated at
//    entry, and every task track and API report CANN delivers on the calling
//    thread while the call runs takes that id (so all kernels, copies and fills
//    of one call share it). The scope remembers the call's entry and exit times.
//  - Task tracks outside any scope (CANN calls that msPTI does not interpose)
//    open an implicit group on their thread. The group stays open until an API
//    report of the thread ends it; the first report whose interval contains the
//    group's first track is its call's report and gives the group its interval.
//  - An API report outside any scope (e.g. an operator's node launch, reported
//    after the launch call it made) takes, among the thread's recent calls
//    (scopes and groups), the id of the earliest one that lies inside the
//    reported interval, preferring a call that launched a kernel. A call lies
//    inside the interval when its whole [entry, exit] does; an open implicit
//    group, whose interval is not known yet, when its first track does. With
//    no such call, the earliest call that began inside the interval; with none
//    at all, a fresh id.
//
// Containment of whole intervals (not of single instants) keeps the rule exact
// when one call ends at the very time the next report begins (a virtual clock
// that only API costs advance makes this the normal case): the earlier call
// begins before the report does, so it is not inside it.
//
// All state is per thread (CANN reports synchronously on the calling thread):
// no lock, no allocation. Host times here are in CANN's host time domain.
#pragma once

#include <cstdint>

namespace mspti::activity {

// Allocates a process-unique id (starting at 1) for the calling thread and
// emits its EXTERNAL_CORRELATION records.
uint64_t AllocateCorrelationId();

class CorrelationScope {
public:
    // `cann_clock` reads now in CANN's host time domain; it is read at entry and at exit.
    explicit CorrelationScope(uint64_t (*cann_clock)());
    ~CorrelationScope();
    CorrelationScope(const CorrelationScope&) = delete;
    CorrelationScope& operator=(const CorrelationScope&) = delete;

    uint64_t id() const { return id_; }

private:
    uint64_t (*cann_clock_)();
    uint64_t id_;
    uint64_t previous_;
    uint32_t slot_;
    uint32_t previous_slot_;
    bool previous_tracked_;
};

// The id of the innermost interposed call running on this thread, 0 if none.
uint64_t CurrentScopeId();

// Whether a kernel task track has reached the innermost interposed call running on this thread
// (true when no call runs: nothing is owed then). A launch that returns without one had its track
// lost inside CANN (interpose/report_route.h).
bool CurrentScopeTracked();

// The id for a kernel task track reported on this thread at `cann_ts`.
uint64_t CorrelationForTrack(uint64_t cann_ts);
// The same rule for the task track of an asynchronous copy or fill (seam/copy_tasks.h); the call
// does not count as one that launched a kernel.
uint64_t CorrelationForCopyTrack(uint64_t cann_ts);

// The id for an API reported on this thread with the interval [begin, end].
uint64_t CorrelationForApi(uint64_t begin, uint64_t end);

// Every API report on this thread (recorded or not) ends the thread's implicit group: the
// kernels its tracks stood for have been claimed by the report's call, later ones are new calls.
void NoteApiReport(uint64_t begin, uint64_t end);

// Whether NoteApiReport can change anything now: the thread has an open implicit group and runs no
// interposed call (one thread-local load; lets a report skip its thread check).
bool ImplicitGroupOpen();

}  // namespace mspti::activity
