// Events: points on a stream's device timeline that other streams and the host can wait for.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/host_cost.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"
#include "core/immortal.h"

using namespace acl;

namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                                      ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

aclError create_event(aclrtEvent* event, uint32_t flags) {
    if (event == nullptr || (flags & ~kKnownEventFlags) != 0) return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    *event = platform().create_event(device->id(), flags);
    return ACL_SUCCESS;
}

// A copy of an event's state; false when the handle is unknown.
bool read_event(aclrtEvent event, npusim::Event& out) {
    return event != nullptr && platform().with_event(event, [&](npusim::Event& e) { out = e; });
}

// An event recorded on a stream held behind a collective (stream_queue.h) is pending until its
// record task is placed. The event APIs that wait for it (synchronisation) sleep here; every
// placement, reset and re-record wakes them to look again.
struct PendingEvents {
    std::mutex mutex;
    std::condition_variable cv;
};

PendingEvents& pending_events() {
    static npusim::Immortal<PendingEvents> p;
    return p.get();
}

void wake_event_waiters() {
    PendingEvents& p = pending_events();
    { std::lock_guard<std::mutex> lock(p.mutex); }  // a waiter between its check and its wait sees the change
    p.cv.notify_all();
}

// The event's state once its record is placed; false when the handle is unknown (or went away).
bool read_placed_event(aclrtEvent event, npusim::Event& out) {
    PendingEvents& p = pending_events();
    std::unique_lock<std::mutex> lock(p.mutex);
    for (;;) {
        if (!read_event(event, out)) return false;
        if (!out.pending) return true;
        p.cv.wait(lock);
    }
}

// The deferred record `generation` of `event` is placed: it ends at `time_ns`. A later record or a
// reset of the event has replaced it when the generation differs.
void settle_event(aclrtEvent event, uint64_t generation, uint64_t time_ns) {
    platform().with_event(event, [&](npusim::Event& e) {
        if (e.generation != generation) return;
        e.pending = false;
        e.stream = nullptr;
        e.time_ns = time_ns;
    });
    wake_event_waiters();
}

uint64_t no_hash() { return 0; }

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtCreateEvent", aclError, event);
    ACL_API_BEGIN(aclrtCreateEvent);
    return create_event(event, ACL_EVENT_SYNC);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
    NPUSIM_FAULT_RETURN("aclrtCreateEventWithFlag", aclError);
    ACL_API_BEGIN(aclrtCreateEventWithFlag);
    return create_event(event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
    NPUSIM_FAULT_RETURN("aclrtCreateEventExWithFlag", aclError);
    ACL_API_BEGIN(aclrtCreateEventExWithFlag);
    return create_event(event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtDestroyEvent", aclError, event);
    ACL_API_BEGIN(aclrtDestroyEvent);
    if (event == nullptr) return ACL_ERROR_INVALID_PARAM;
    return platform().destroy_event(event) ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtRecordEvent", aclError, event, stream);
    ACL_API_BEGIN(aclrtRecordEvent);
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    const npusim::TaskDesc desc = plain_task(npusim::TaskKind::EventRecord, soc().event_task_ns, stars::kEventRecord);
    if (!s->queue().idle()) {
        // Behind a collective whose peers have not all arrived: the record is placed when the
        // stream reaches it; until then the event is pending (not complete) and the call returns.
        if (capture::any_capturing()) capture::invalidate_if_capturing(*s);
        uint64_t generation = 0;
        platform().with_event(event, [&](npusim::Event& e) {
            e.recorded = true;
            e.pending = true;
            e.stream = s;
            e.time_ns = 0;
            generation = ++e.generation;
        });
        defer_task(*device, *s, desc, TaskType::EventRecord, no_hash,
                   [event, generation](const npusim::TaskRecord& rec) { settle_event(event, generation, rec.end_ns); });
        return ACL_SUCCESS;
    }
    const npusim::TaskRecord rec = submit_task(*device, *s, desc, TaskType::EventRecord);
    // The event marks the point at which the stream has passed the record task.
    bool replaced = false;
    platform().with_event(event, [&](npusim::Event& e) {
        replaced = e.pending;
        e.recorded = true;
        e.pending = false;
        e.stream = nullptr;
        e.time_ns = rec.end_ns;
        ++e.generation;
    });
    if (replaced) wake_event_waiters();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("aclrtResetEvent", aclError);
    ACL_API_BEGIN(aclrtResetEvent);
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    // Resetting is bookkeeping here: the event simply becomes unrecorded, no task is queued.
    bool replaced = false;
    platform().with_event(event, [&](npusim::Event& e) {
        replaced = e.pending;
        e.recorded = false;
        e.pending = false;
        e.stream = nullptr;
        e.time_ns = 0;
        ++e.generation;
    });
    if (replaced) wake_event_waiters();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    NPUSIM_FAULT_RETURN("aclrtStreamWaitEvent", aclError);
    ACL_API_BEGIN(aclrtStreamWaitEvent);
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    if (state.pending && state.stream != s) {
        // The event's record waits behind a collective on its own stream: this stream is held
        // until that record is placed, and its wait task then waits for the record's time. Neither
        // stream's host thread waits.
        npusim::Stream* from = state.stream;
        const uint64_t ticket = s->queue().hold();
        auto time_ns = std::make_shared<std::atomic<uint64_t>>(0);
        npusim::TaskDesc desc = plain_task(npusim::TaskKind::EventWait, soc().event_task_ns, stars::kEventWait);
        defer_task(
            *device, *s, desc, TaskType::EventWait, no_hash, [](const npusim::TaskRecord&) {},
            [time_ns](npusim::TaskDesc& d) { d.not_before_ns = time_ns->load(std::memory_order_acquire); });
        auto signal = [event, time_ns, s, ticket] {
            npusim::Event now;
            if (read_event(event, now) && now.recorded && !now.pending)
                time_ns->store(now.time_ns, std::memory_order_release);
            s->queue().release(ticket, 0);
        };
        if (!from->queue().defer(signal)) signal();  // placed meanwhile
        return ACL_SUCCESS;
    }
    // Waiting for an event that was never recorded does not block the stream. One pending on this
    // very stream is behind the same hold as this wait, which the stream's order already places after it.
    const uint64_t not_before = state.recorded && !state.pending ? state.time_ns : 0;
    const npusim::TaskDesc desc =
        plain_task(npusim::TaskKind::EventWait, soc().event_task_ns, stars::kEventWait, not_before);
    if (!s->queue().idle()) {
        if (capture::any_capturing()) capture::invalidate_if_capturing(*s);
        defer_task(*device, *s, desc, TaskType::EventWait, no_hash, [](const npusim::TaskRecord&) {});
        return ACL_SUCCESS;
    }
    submit_task(*device, *s, desc, TaskType::EventWait);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtSynchronizeEvent", aclError, event);
    ACL_API_BEGIN(aclrtSynchronizeEvent);
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    if (state.pending && !read_placed_event(event, state)) return ACL_ERROR_RT_PARAM_INVALID;  // destroyed meanwhile
    if (!state.recorded) return ACL_SUCCESS;
    sim_clock().wait_until(state.time_ns);
    sim_clock().spend(sync_return_ns());
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
    NPUSIM_FAULT_RETURN("aclrtQueryEvent", aclError);
    ACL_API_BEGIN(aclrtQueryEvent);
    if (status == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    // An event nobody recorded has nothing left to do.
    *status = state.recorded && (state.pending || state.time_ns > sim_clock().now()) ? ACL_EVENT_STATUS_NOT_READY
                                                                                     : ACL_EVENT_STATUS_COMPLETE;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
    NPUSIM_FAULT_RETURN("aclrtQueryEventStatus", aclError);
    ACL_API_BEGIN(aclrtQueryEventStatus);
    if (status == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    *status = state.recorded && !state.pending && state.time_ns <= sim_clock().now()
                  ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                  : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    NPUSIM_FAULT_RETURN("aclrtEventElapsedTime", aclError);
    ACL_API_BEGIN(aclrtEventElapsedTime);
    if (ms == nullptr || startEvent == nullptr || endEvent == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event start, end;
    if (!read_event(startEvent, start) || !read_event(endEvent, end)) return ACL_ERROR_RT_PARAM_INVALID;
    if (!start.recorded || !end.recorded) return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
    // A record still behind a collective has no time yet.
    if (start.pending || end.pending) return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
    if (end.time_ns < start.time_ns) return ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
    *ms = static_cast<float>(static_cast<double>(end.time_ns - start.time_ns) / 1e6);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
    NPUSIM_FAULT_RETURN("aclrtEventGetTimestamp", aclError);
    ACL_API_BEGIN(aclrtEventGetTimestamp);
    if (timestamp == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    if (!state.recorded) return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
    if (state.pending) return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
    *timestamp = state.time_ns;  // device clock, ns
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
    NPUSIM_FAULT_RETURN("aclrtGetEventId", aclError);
    ACL_API_BEGIN(aclrtGetEventId);
    if (eventId == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    *eventId = state.id;
    return ACL_SUCCESS;
}
