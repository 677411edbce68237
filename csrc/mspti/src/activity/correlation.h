// Correlation ids: one id per API call, shared by every record the call causes.
//
//  - An interposed aclrt*/Hccl* call opens a scope: its id is allocated at
//    entry, and every task track and API report CANN delivers on the calling
//    thread while the call runs takes that id (so all kernels, copies and fills
//    of one call share it). The scope remembers the call's entry and exit times.
//    A kernel launch that no callback wants opens a launch scope instead, which
//    reads no clock: its interval is the first API report CANN makes inside it
//    (the runtime's report of the launch), else its first kernel track's time.
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
// no lock, no allocation. Host times here are in CANN's host time domain. The
// rules' common cases (a track inside a scope or joining an open group, a report
// that can only be the newest call's) are inline: they run on every traced launch.
#pragma once

#include <atomic>
#include <cstdint>

#include "activity/external_correlation.h"
#include "activity/kinds.h"
#include "common/hot_tls.h"

namespace mspti::activity {

// Allocates a process-unique id (starting at 1) for the calling thread and
// emits its EXTERNAL_CORRELATION records.
uint64_t AllocateCorrelationId();

// One recent call of the thread: a scope (interposed call), an implicit group (kernels launched by a
// call msPTI does not interpose) or the call behind an API report that matched nothing.
struct RecentCall {
    uint64_t id;     // 0: empty slot
    uint64_t begin;  // entry; for an implicit group its first track until a report gives it an interval
    uint64_t end;    // exit, valid when `closed`
    uint64_t track;  // first kernel task track, 0 if none
    bool closed;     // the interval [begin, end] is known (false: a running scope, an open implicit group)
};

namespace detail {

// The innermost scope and the open implicit group of the thread: read on every task track and API
// report, so small and initial-exec (common/hot_tls.h); the ring of recent calls they point into is
// an ordinary thread-local (correlation.cpp). Plain data, so it needs no thread-exit destructor and
// stays usable until the thread is gone. An entry is theirs only while it still holds their id (the
// ring reuses its slots).
struct ThreadCorrelation {
    uint64_t scope_id;
    RecentCall* scope_call;
    uint64_t implicit_id;
    uint64_t implicit_start;
    RecentCall* implicit_call;
    // The call added last, and a bound on when every older call began (UINT64_MAX: unknown, or one
    // may still be open): a report that begins after the bound can only be the newest call's, so
    // its id is found without a walk over the ring (the common case: one launch after another).
    RecentCall* newest;
    uint64_t older_bound;
    RecentCall* recent;    // the ring itself once reached (its thread-local takes a call to find)
    uint32_t recent_next;  // the ring's next slot (wraps; oldest first from here)
    bool scope_tracked;    // a kernel task track reached the innermost scope
    // An API report must be noted (NoteApiReport): an implicit group is open outside any scope, or
    // the innermost scope is a launch scope whose interval no report has given yet.
    bool awaiting_report;
};
MSPTI_HOT_TLS inline thread_local ThreadCorrelation t_corr{};

inline bool Within(uint64_t t, uint64_t begin, uint64_t end) { return t >= begin && t <= end; }

// `call` if it still holds call `id` (the ring may have reused the slot).
inline RecentCall* IfStill(RecentCall* call, uint64_t id) { return call != nullptr && call->id == id ? call : nullptr; }

// Whether `call` lies inside [begin, end]: its whole interval when known, else (an open implicit
// group) its first track.
inline bool Inside(const RecentCall& call, uint64_t begin, uint64_t end) {
    if (call.closed) return call.begin >= begin && call.end <= end;
    return call.id == t_corr.implicit_id && call.track != 0 && Within(call.track, begin, end);
}

// The id counter and the thread's ring of recent calls, inline: a launch scope allocates an id and
// adds its call on every traced launch (correlation.cpp holds the ring's storage).
extern std::atomic<uint64_t> g_next_id;
constexpr uint32_t kRecentCalls = 16;
constexpr uint64_t kUnbounded = UINT64_MAX;

[[gnu::noinline]] RecentCall* FirstRing();  // the ring's thread-local takes a call to find: once

inline RecentCall* Ring() {
    RecentCall* ring = t_corr.recent;
    return __builtin_expect(ring != nullptr, 1) ? ring : FirstRing();
}

inline uint64_t NextId() {
    const uint64_t id = g_next_id.fetch_add(1, std::memory_order_relaxed);
    if (Enabled(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)) ReportExternalCorrelation(id);
    return id;
}

// A closed call lies inside a report's interval, or began in it, only if it began no earlier than
// the report: its begin bounds the reports it can match (an open call may match any).
inline uint64_t Bound(const RecentCall& call) { return call.closed ? call.begin : kUnbounded; }

inline RecentCall* AddCall(const RecentCall& call) {
    ThreadCorrelation& t = t_corr;
    if (const RecentCall* previous = t.newest) {
        const uint64_t bound = Bound(*previous);
        if (bound > t.older_bound) t.older_bound = bound;
    }
    RecentCall* slot = &Ring()[t.recent_next % kRecentCalls];
    *slot = call;
    ++t.recent_next;
    t.newest = slot;
    return slot;
}

// The out-of-line parts of the rules below (correlation.cpp): kept out of line, so that the inline
// common cases set up no frame for them.
[[gnu::noinline]] uint64_t OpenImplicitGroup(uint64_t cann_ts, bool kernel);
[[gnu::noinline]] uint64_t CorrelationForApiWalk(uint64_t begin, uint64_t end);
[[gnu::noinline]] uint64_t NewReportedCall(uint64_t begin, uint64_t end);
// What a launch scope (LaunchScope below) restores at its exit, and its call.
struct LaunchFrame {
    uint64_t previous_id;
    RecentCall* previous_call;
    RecentCall* call;  // the launch's entry among the thread's recent calls
    uint64_t id;
    bool previous_tracked;
    bool previous_awaiting;
};
// Closes a launch no report was made inside: its interval is its first track's time; without a
// track the entry is emptied, since a later report has nothing to claim.
[[gnu::noinline]] void CloseUnreportedLaunch(RecentCall& call);

// The rule of CorrelationForTrack and CorrelationForCopyTrack. A copy's or fill's track (`kernel`
// false) joins its call like a kernel's, but does not make the call one that launched a kernel.
// Inside a scope: the scope's id, and a kernel's track marks the scope as tracked (again, harmlessly).
inline uint64_t ScopeTrackCorrelation(ThreadCorrelation& t, uint64_t cann_ts, bool kernel) {
    if (kernel) {
        t.scope_tracked = true;
        RecentCall* call = IfStill(t.scope_call, t.scope_id);
        if (call != nullptr && call->track == 0) call->track = cann_ts;
    }
    return t.scope_id;
}

[[gnu::always_inline]] inline uint64_t TrackCorrelation(uint64_t cann_ts, bool kernel) {
    ThreadCorrelation& t = t_corr;
    if (t.scope_id != 0) return ScopeTrackCorrelation(t, cann_ts, kernel);
    if (t.implicit_id != 0) return t.implicit_id;
    return OpenImplicitGroup(cann_ts, kernel);
}

}  // namespace detail

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
    RecentCall* call_;           // this call's entry among the thread's recent calls
    RecentCall* previous_call_;  // the enclosing scope's
    bool previous_tracked_;
    bool previous_awaiting_;
};

// The id of the innermost interposed call running on this thread, 0 if none.
inline uint64_t CurrentScopeId() { return detail::t_corr.scope_id; }

// Whether a kernel task track has reached the innermost interposed call running on this thread
// (true when no call runs: nothing is owed then). A launch that returns without one had its track
// lost inside CANN (interpose/report_route.h).
inline bool CurrentScopeTracked() { return detail::t_corr.scope_id == 0 || detail::t_corr.scope_tracked; }

// The id for a kernel task track reported on this thread at `cann_ts`.
[[gnu::always_inline]] inline uint64_t CorrelationForTrack(uint64_t cann_ts) {
    return detail::TrackCorrelation(cann_ts, true);
}

// The same rule for the task track of an asynchronous copy or fill (reports/copy_tasks.h); the call
// does not count as one that launched a kernel.
inline uint64_t CorrelationForCopyTrack(uint64_t cann_ts) { return detail::TrackCorrelation(cann_ts, false); }

// The id for an API reported on this thread with the interval [begin, end].
[[gnu::always_inline]] inline uint64_t CorrelationForApi(uint64_t begin, uint64_t end) {
    const detail::ThreadCorrelation& t = detail::t_corr;
    if (t.scope_id != 0) return t.scope_id;
    if (end < begin) end = begin;
    // Every older call began before the report did: none lies or began inside it, so the rule
    // reduces to the newest call.
    if (const RecentCall* newest = t.newest; newest != nullptr && t.older_bound < begin) {
        if (detail::Inside(*newest, begin, end) || detail::Within(newest->begin, begin, end)) return newest->id;
        return detail::NewReportedCall(begin, end);
    }
    return detail::CorrelationForApiWalk(begin, end);
}

// Whether NoteApiReport can change anything now (one thread-local load; lets a report skip its
// thread check): the thread has an open implicit group outside any scope, or runs a launch scope
// that no report has given its interval yet.
inline bool ReportAwaited() { return detail::t_corr.awaiting_report; }

namespace detail {
[[gnu::noinline]] void EndImplicitGroupAt(uint64_t begin, uint64_t end);

// A launch scope's first report: CANN's report of the launch, whose interval the call takes.
inline void CloseLaunch(ThreadCorrelation& t, uint64_t begin, uint64_t end) {
    RecentCall& call = *t.scope_call;
    call.begin = begin;
    call.end = end < begin ? begin : end;
    call.closed = true;
    t.awaiting_report = false;
}
}  // namespace detail

// Every API report on this thread (recorded or not) ends the thread's implicit group: the
// kernels its tracks stood for have been claimed by the report's call, later ones are new calls.
// Inside a launch scope, the first report gives the launch its interval.
inline void NoteApiReport(uint64_t begin, uint64_t end) {
    detail::ThreadCorrelation& t = detail::t_corr;
    if (!t.awaiting_report) return;
    if (t.scope_id != 0) {
        detail::CloseLaunch(t, begin, end);
        return;
    }
    detail::EndImplicitGroupAt(begin, end);
}

// Whether an interposed call runs on this thread: then the rules below reduce to their inline parts
// (the ...InScope forms, which require it).
inline bool InScope() { return detail::t_corr.scope_id != 0; }

// ClaimApi and CorrelationForTrack inside a scope (InScope()); a second claim of the same report
// changes nothing.
inline uint64_t ClaimApiInScope(uint64_t begin, uint64_t end) {
    detail::ThreadCorrelation& t = detail::t_corr;
    if (t.awaiting_report) detail::CloseLaunch(t, begin, end);
    return t.scope_id;
}
inline uint64_t TrackCorrelationInScope(uint64_t cann_ts) {
    return detail::ScopeTrackCorrelation(detail::t_corr, cann_ts, true);
}

// CorrelationForApi, then NoteApiReport, for a report that is recorded: inside a scope, one look
// at the thread for both (the runtime's report of every traced launch).
[[gnu::always_inline]] inline uint64_t ClaimApi(uint64_t begin, uint64_t end) {
    if (InScope()) return ClaimApiInScope(begin, end);
    const uint64_t id = CorrelationForApi(begin, end);
    NoteApiReport(begin, end);
    return id;
}

// Ends the thread's open implicit group as a call CANN did not report (only its first track's time
// is known): a launch scope ends the group of earlier calls before its launch runs.
void EndImplicitGroup();

// The scope of a kernel launch whose callbacks nobody wants (interpose/acl_launch_wrappers.cpp). Like
// CorrelationScope it gives the call an id at entry, which the launch's tracks and reports take, but
// it reads no clock: the call's interval comes from the first API report CANN makes inside it, else
// its first kernel track's time. An implicit group an earlier call left open is not this launch's:
// it is ended first.
class LaunchScope {
public:
    // Inline, with only cold calls: the launch's arguments then stay in their registers.
    LaunchScope() noexcept {
        detail::ThreadCorrelation& t = detail::t_corr;
        if (__builtin_expect(t.awaiting_report, 0) && t.scope_id == 0) EndImplicitGroup();
        frame_.previous_id = t.scope_id;
        frame_.previous_call = t.scope_call;
        frame_.previous_tracked = t.scope_tracked;
        frame_.previous_awaiting = t.awaiting_report;
        frame_.id = detail::NextId();
        frame_.call = detail::AddCall(RecentCall{frame_.id, 0, 0, 0, false});
        t.scope_id = frame_.id;
        t.scope_call = frame_.call;
        t.scope_tracked = false;
        t.awaiting_report = true;
    }
    ~LaunchScope() {
        detail::ThreadCorrelation& t = detail::t_corr;
        t.scope_id = frame_.previous_id;
        t.scope_call = frame_.previous_call;
        t.scope_tracked = frame_.previous_tracked;
        t.awaiting_report = frame_.previous_awaiting;
        RecentCall& call = *frame_.call;
        if (__builtin_expect(!call.closed, 0) && call.id == frame_.id) detail::CloseUnreportedLaunch(call);
    }
    LaunchScope(const LaunchScope&) = delete;
    LaunchScope& operator=(const LaunchScope&) = delete;

private:
    detail::LaunchFrame frame_;
};

}  // namespace mspti::activity
