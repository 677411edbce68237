#include "activity/correlation.h"

#include <atomic>

#include "activity/external_correlation.h"
#include "activity/kinds.h"

namespace mspti::activity {
namespace {

using detail::AddCall;
using detail::IfStill;
using detail::Inside;
using detail::kUnbounded;
using detail::Ring;
using detail::t_corr;
using detail::Within;
using Call = RecentCall;

// The thread's recent calls, oldest first from t_corr.recent_next.
thread_local Call t_recent[detail::kRecentCalls]{};

}  // namespace

std::atomic<uint64_t> detail::g_next_id{1};

RecentCall* detail::FirstRing() { return t_corr.recent = t_recent; }

uint64_t AllocateCorrelationId() { return detail::NextId(); }

CorrelationScope::CorrelationScope(uint64_t (*cann_clock)())
    : cann_clock_(cann_clock),
      id_(AllocateCorrelationId()),
      previous_(t_corr.scope_id),
      call_(nullptr),
      previous_call_(t_corr.scope_call),
      previous_tracked_(t_corr.scope_tracked),
      previous_awaiting_(t_corr.awaiting_report) {
    call_ = AddCall(Call{id_, cann_clock_(), 0, 0, false});
    t_corr.scope_id = id_;
    t_corr.scope_call = call_;
    t_corr.scope_tracked = false;
    t_corr.awaiting_report = false;
}

CorrelationScope::~CorrelationScope() {
    if (Call* call = IfStill(call_, id_)) {
        const uint64_t now = cann_clock_();
        call->end = now > call->begin ? now : call->begin;
        call->closed = true;
    }
    t_corr.scope_id = previous_;
    t_corr.scope_call = previous_call_;
    t_corr.scope_tracked = previous_tracked_;
    t_corr.awaiting_report = previous_awaiting_;
}

namespace detail {

uint64_t OpenImplicitGroup(uint64_t cann_ts, bool kernel) {
    t_corr.implicit_id = AllocateCorrelationId();
    t_corr.implicit_start = cann_ts;
    t_corr.implicit_call = AddCall(Call{t_corr.implicit_id, cann_ts, 0, kernel ? cann_ts : 0, false});
    t_corr.awaiting_report = true;
    return t_corr.implicit_id;
}

void CloseUnreportedLaunch(Call& call) {
    if (call.track != 0) {
        call.begin = call.end = call.track;
        call.closed = true;
        return;
    }
    call = Call{0, kUnbounded, kUnbounded, 0, true};  // empty: id 0, and no report's interval holds it
}

// A call of its own (e.g. one that launched nothing): an enclosing report can still claim it.
uint64_t NewReportedCall(uint64_t begin, uint64_t end) {
    const uint64_t id = AllocateCorrelationId();
    AddCall(Call{id, begin, end, 0, true});
    return id;
}

// The whole rule (CorrelationForApi), when an older call may match: the thread's recent calls from
// the oldest to the newest, so that the earliest match wins. Recomputes the older calls' bound.
uint64_t CorrelationForApiWalk(uint64_t begin, uint64_t end) {
    const Call* with_kernel = nullptr;  // earliest call inside the interval that launched a kernel
    const Call* inside = nullptr;       // earliest call inside the interval
    const Call* started = nullptr;      // earliest call that began inside the interval
    const Call* recent = Ring();
    uint64_t older_bound = 0;
    for (uint32_t i = 0; i < detail::kRecentCalls; ++i) {
        const Call& call = recent[(t_corr.recent_next + i) % detail::kRecentCalls];
        if (call.id == 0) continue;
        if (&call != t_corr.newest) {
            const uint64_t bound = detail::Bound(call);
            if (bound > older_bound) older_bound = bound;
        }
        if (Inside(call, begin, end)) {
            if (with_kernel == nullptr && call.track != 0) with_kernel = &call;
            if (inside == nullptr) inside = &call;
        }
        if (started == nullptr && Within(call.begin, begin, end)) started = &call;
    }
    t_corr.older_bound = older_bound;
    if (with_kernel != nullptr) return with_kernel->id;
    if (inside != nullptr) return inside->id;
    if (started != nullptr) return started->id;
    return NewReportedCall(begin, end);
}

}  // namespace detail

// NoteApiReport outside any scope: the report ends the thread's open implicit group.
void detail::EndImplicitGroupAt(uint64_t begin, uint64_t end) {
    if (t_corr.implicit_id == 0 || end < t_corr.implicit_start) return;
    // The report ends the group. If it contains the group's first track it is the report of the
    // call that launched the kernels, which gives the group its interval; otherwise that call was
    // never reported and only the track's time is known.
    if (Call* call = IfStill(t_corr.implicit_call, t_corr.implicit_id)) {
        const bool reported = Within(call->track, begin, end);
        call->begin = reported ? begin : call->track;
        call->end = reported ? end : call->track;
        call->closed = true;
    }
    t_corr.implicit_id = 0;
    t_corr.awaiting_report = false;
}

void EndImplicitGroup() {
    if (Call* call = IfStill(t_corr.implicit_call, t_corr.implicit_id)) {
        call->begin = call->track != 0 ? call->track : call->begin;
        call->end = call->begin;
        call->closed = true;
    }
    t_corr.implicit_id = 0;
    t_corr.awaiting_report = false;
}

}  // namespace mspti::activity
