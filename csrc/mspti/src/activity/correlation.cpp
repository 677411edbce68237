#include "activity/correlation.h"

#include <atomic>

#include "activity/external_correlation.h"

namespace mspti::activity {
namespace {

std::atomic<uint64_t> g_next_id{1};

constexpr uint32_t kRecentCalls = 16;

// One recent call of the thread: a scope (interposed call), an implicit group (kernels launched by a
// call msPTI does not interpose) or the call behind an API report that matched nothing.
struct Call {
    uint64_t id;     // 0: empty slot
    uint64_t begin;  // entry; for an implicit group its first track until a report gives it an interval
    uint64_t end;    // exit, valid when `closed`
    uint64_t track;  // first kernel task track, 0 if none
    bool closed;     // the interval [begin, end] is known (false: a running scope, an open implicit group)
};

// Plain data, so it needs no thread-exit destructor and stays usable until the thread is gone.
struct ThreadCorrelation {
    uint64_t scope_id;
    uint64_t implicit_id;
    uint64_t implicit_start;
    uint32_t scope_slot;
    uint32_t implicit_slot;
    uint32_t next;
    bool scope_tracked;  // a kernel task track reached the innermost scope
    Call recent[kRecentCalls];
};

thread_local ThreadCorrelation t_corr{};

uint32_t AddCall(const Call& call) {
    const uint32_t slot = t_corr.next % kRecentCalls;
    t_corr.recent[slot] = call;
    ++t_corr.next;
    return slot;
}

// The call in `slot` if it is still call `id` (the ring may have reused the slot).
Call* CallAt(uint32_t slot, uint64_t id) {
    Call& call = t_corr.recent[slot % kRecentCalls];
    return call.id == id ? &call : nullptr;
}

bool Within(uint64_t t, uint64_t begin, uint64_t end) { return t >= begin && t <= end; }

// Whether `call` lies inside [begin, end]: its whole interval when known, else (an open implicit
// group) its first track.
bool Inside(const Call& call, uint64_t begin, uint64_t end) {
    if (call.closed) return call.begin >= begin && call.end <= end;
    return call.id == t_corr.implicit_id && call.track != 0 && Within(call.track, begin, end);
}

}  // namespace

uint64_t AllocateCorrelationId() {
    const uint64_t id = g_next_id.fetch_add(1, std::memory_order_relaxed);
    ReportExternalCorrelation(id);
    return id;
}

CorrelationScope::CorrelationScope(uint64_t (*cann_clock)())
    : cann_clock_(cann_clock),
      id_(AllocateCorrelationId()),
      previous_(t_corr.scope_id),
      slot_(0),
      previous_slot_(t_corr.scope_slot),
      previous_tracked_(t_corr.scope_tracked) {
    slot_ = AddCall(Call{id_, cann_clock_(), 0, 0, false});
    t_corr.scope_id = id_;
    t_corr.scope_slot = slot_;
    t_corr.scope_tracked = false;
}

CorrelationScope::~CorrelationScope() {
    if (Call* call = CallAt(slot_, id_)) {
        const uint64_t now = cann_clock_();
        call->end = now > call->begin ? now : call->begin;
        call->closed = true;
    }
    t_corr.scope_id = previous_;
    t_corr.scope_slot = previous_slot_;
    t_corr.scope_tracked = previous_tracked_;
}

uint64_t CurrentScopeId() { return t_corr.scope_id; }

bool CurrentScopeTracked() { return t_corr.scope_id == 0 || t_corr.scope_tracked; }

namespace {

// The rule of CorrelationForTrack and CorrelationForCopyTrack, inlined into both, so that each has
// one caller (the kernels' is inlined into the compact-report handler, on every traced launch). A
// copy's or fill's track (`kernel` false) joins its call like a kernel's, but does not make the call
// one that launched a kernel.
[[gnu::always_inline]] inline uint64_t TrackCorrelation(uint64_t cann_ts, bool kernel) {
    if (t_corr.scope_id != 0) {
        Call* call = CallAt(t_corr.scope_slot, t_corr.scope_id);
        if (kernel) {
            t_corr.scope_tracked = true;
            if (call != nullptr && call->track == 0) call->track = cann_ts;
        }
        return t_corr.scope_id;
    }
    if (t_corr.implicit_id == 0) {
        t_corr.implicit_id = AllocateCorrelationId();
        t_corr.implicit_start = cann_ts;
        t_corr.implicit_slot = AddCall(Call{t_corr.implicit_id, cann_ts, 0, kernel ? cann_ts : 0, false});
    }
    return t_corr.implicit_id;
}

}  // namespace

uint64_t CorrelationForTrack(uint64_t cann_ts) { return TrackCorrelation(cann_ts, true); }

uint64_t CorrelationForCopyTrack(uint64_t cann_ts) { return TrackCorrelation(cann_ts, false); }

uint64_t CorrelationForApi(uint64_t begin, uint64_t end) {
    if (t_corr.scope_id != 0) return t_corr.scope_id;
    if (end < begin) end = begin;

    const Call* with_kernel = nullptr;  // earliest call inside the interval that launched a kernel
    const Call* inside = nullptr;       // earliest call inside the interval
    const Call* started = nullptr;      // earliest call that began inside the interval
    // Walk from the oldest to the newest entry so the earliest match wins.
    for (uint32_t i = 0; i < kRecentCalls; ++i) {
        const Call& call = t_corr.recent[(t_corr.next + i) % kRecentCalls];
        if (call.id == 0) continue;
        if (Inside(call, begin, end)) {
            if (with_kernel == nullptr && call.track != 0) with_kernel = &call;
            if (inside == nullptr) inside = &call;
        }
        if (started == nullptr && Within(call.begin, begin, end)) started = &call;
    }
    if (with_kernel != nullptr) return with_kernel->id;
    if (inside != nullptr) return inside->id;
    if (started != nullptr) return started->id;
    // A call of its own (e.g. one that launched nothing): an enclosing report can still claim it.
    const uint64_t id = AllocateCorrelationId();
    AddCall(Call{id, begin, end, 0, true});
    return id;
}

bool ImplicitGroupOpen() { return t_corr.scope_id == 0 && t_corr.implicit_id != 0; }

void NoteApiReport(uint64_t begin, uint64_t end) {
    if (t_corr.scope_id != 0 || t_corr.implicit_id == 0 || end < t_corr.implicit_start) return;
    // The report ends the group. If it contains the group's first track it is the report of the
    // call that launched the kernels, which gives the group its interval; otherwise that call was
    // never reported and only the track's time is known.
    if (Call* call = CallAt(t_corr.implicit_slot, t_corr.implicit_id)) {
        const bool reported = Within(call->track, begin, end);
        call->begin = reported ? begin : call->track;
        call->end = reported ? end : call->track;
        call->closed = true;
    }
    t_corr.implicit_id = 0;
}

}  // namespace mspti::activity
