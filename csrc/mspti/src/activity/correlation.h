// Correlation ids: one id per API call, shared by every record the call causes.
//
//  - An interposed aclrt*/Hccl* call opens a scope: its id is allocated at
//    entry, and every task track and API report CANN delivers on the calling
//    thread while the call runs takes that id (so all kernels, copies and fills
//    of one call share it).
//  - Task tracks outside any scope (CANN calls that msPTI does not interpose)
//    open an implicit group on their thread; the group keeps its id until an
//    API report of the thread claims it.
//  - An API report outside any scope takes the id of the earliest recent group
//    of its thread whose work (task track, else the call's start) lies inside
//    the reported interval, so e.g. a node launch reported after the launch
//    call it made shares that call's id with its kernels; with no such group a
//    fresh id is allocated.
//
// All state is per thread (CANN reports synchronously on the calling thread),
// so no lock is involved. Host times here are in CANN's host time domain.
#pragma once

#include <cstdint>

namespace mspti::activity {

// Allocates a process-unique id (starting at 1) for the calling thread and
// emits its EXTERNAL_CORRELATION records.
uint64_t AllocateCorrelationId();

class CorrelationScope {
public:
    // `cann_now` is the entry time in CANN's host time domain.
    explicit CorrelationScope(uint64_t cann_now);
    ~CorrelationScope();
    CorrelationScope(const CorrelationScope&) = delete;
    CorrelationScope& operator=(const CorrelationScope&) = delete;

    uint64_t id() const { return id_; }

private:
    uint64_t id_;
    uint64_t previous_;
};

// The id of the innermost interposed call running on this thread, 0 if none.
uint64_t CurrentScopeId();

// The id for a kernel task track reported on this thread at `cann_ts`.
uint64_t CorrelationForTrack(uint64_t cann_ts);

// The id for an API reported on this thread with the interval [begin, end].
uint64_t CorrelationForApi(uint64_t begin, uint64_t end);

// Every API report on this thread (recorded or not) ends the thread's implicit group: the
// kernels its tracks stood for have been claimed by the report's call, later ones are new calls.
void NoteApiReport(uint64_t end);

}  // namespace mspti::activity
