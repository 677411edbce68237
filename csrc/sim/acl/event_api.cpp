// Events: points on a stream's device timeline that other streams and the host can wait for.
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"

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
    const npusim::TaskRecord rec = submit_task(
        *device, *s, plain_task(npusim::TaskKind::EventRecord, soc().event_task_ns, stars::kEventRecord), TaskType::EventRecord);
    // The event marks the point at which the stream has passed the record task.
    platform().with_event(event, [&](npusim::Event& e) {
        e.recorded = true;
        e.time_ns = rec.end_ns;
    });
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
    platform().with_event(event, [](npusim::Event& e) {
        e.recorded = false;
        e.time_ns = 0;
    });
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
    // Waiting for an event that was never recorded does not block the stream.
    const uint64_t not_before = state.recorded ? state.time_ns : 0;
    submit_task(*device, *s,
                plain_task(npusim::TaskKind::EventWait, soc().event_task_ns, stars::kEventWait, not_before),
                TaskType::EventWait);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtSynchronizeEvent", aclError, event);
    ACL_API_BEGIN(aclrtSynchronizeEvent);
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    if (!state.recorded) return ACL_SUCCESS;
    sim_clock().wait_until(state.time_ns);
    sim_clock().spend(soc().sync_wake_ns);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
    NPUSIM_FAULT_RETURN("aclrtQueryEvent", aclError);
    ACL_API_BEGIN(aclrtQueryEvent);
    if (status == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    // An event nobody recorded has nothing left to do.
    *status = state.recorded && state.time_ns > sim_clock().now() ? ACL_EVENT_STATUS_NOT_READY : ACL_EVENT_STATUS_COMPLETE;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
    NPUSIM_FAULT_RETURN("aclrtQueryEventStatus", aclError);
    ACL_API_BEGIN(aclrtQueryEventStatus);
    if (status == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Event state;
    if (!read_event(event, state)) return event == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    *status = state.recorded && state.time_ns <= sim_clock().now() ? ACL_EVENT_RECORDED_STATUS_COMPLETE
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
