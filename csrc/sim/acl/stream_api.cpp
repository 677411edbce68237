// Streams: creation on the current device, in-order execution, synchronisation.
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/capture.h"
#include "acl/host_cost.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

constexpr uint32_t kMaxStreamPriority = 7;
constexpr uint32_t kKnownStreamFlags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT |
                                       ACL_STREAM_HUGE | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;

aclError create_stream(aclrtStream* stream, uint32_t priority, uint32_t flags) {
    if (stream == nullptr || priority > kMaxStreamPriority || (flags & ~kKnownStreamFlags) != 0)
        return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    npusim::Stream* s = device->create_stream(priority, flags);
    if (s == nullptr) return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    *stream = npusim::Platform::stream_handle(*s);
    return ACL_SUCCESS;
}

// Waits for a stream's queued work; false (after waiting timeout_ms) when it does not finish in time.
// Work held on the stream (a collective waiting for its peers, stream_queue.h) is placed first:
// the host waits for the peers here, bounded by the collective's execution timeout (and by
// timeout_ms of host time when given); a failed collective's error is returned (`error`).
bool wait_for_stream(npusim::Stream& stream, int32_t timeout_ms, aclError& error) {
    npusim::Clock& clock = sim_clock();
    if (timeout_ms > 0) {
        if (!stream.queue().wait_idle_for(timeout_ms)) return false;  // the peers did not come in time
    } else {
        stream.queue().wait_idle();
    }
    error = stream.queue().take_error();
    const uint64_t tail = stream.tail_ns();
    if (timeout_ms > 0) {
        const uint64_t deadline = clock.now() + uint64_t(timeout_ms) * 1'000'000ULL;
        if (tail > deadline) {
            clock.wait_until(deadline);
            return false;
        }
    }
    clock.wait_until(tail);
    clock.spend(sync_return_ns());
    return true;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtCreateStream", aclError, stream);
    ACL_API_BEGIN(aclrtCreateStream);
    return create_stream(stream, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
    NPUSIM_FAULT_RETURN("aclrtCreateStreamWithConfig", aclError);
    ACL_API_BEGIN(aclrtCreateStreamWithConfig);
    return create_stream(stream, priority, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtDestroyStream", aclError, stream);
    ACL_API_BEGIN(aclrtDestroyStream);
    if (stream == nullptr) return ACL_ERROR_INVALID_PARAM;  // the default stream is not the caller's to destroy
    npusim::Stream* s = platform().resolve_stream(stream);
    if (s == nullptr || s->id() == 0) return ACL_ERROR_RT_PARAM_INVALID;
    if (capture::any_capturing() && capture::is_capturing(*s)) return ACL_ERROR_RT_STREAM_CAPTURED;
    // Queued work completes before the stream goes away.
    s->queue().wait_idle();
    sim_clock().wait_until(s->tail_ns());
    if (!platform().device(s->device())->destroy_stream(s)) return ACL_ERROR_RT_PARAM_INVALID;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtSynchronizeStream", aclError, stream);
    ACL_API_BEGIN(aclrtSynchronizeStream);
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    // Waiting for a capturing stream breaks its capture.
    if (capture::any_capturing() && capture::blocks_capture(*s)) return ACL_ERROR_RT_STREAM_CAPTURED;
    aclError error = ACL_SUCCESS;
    (void)wait_for_stream(*s, -1, error);
    return error;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    NPUSIM_FAULT_RETURN("aclrtSynchronizeStreamWithTimeout", aclError);
    ACL_API_BEGIN(aclrtSynchronizeStreamWithTimeout);
    if (timeout < -1) return ACL_ERROR_INVALID_PARAM;  // -1 (and 0) wait without limit
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    if (capture::any_capturing() && capture::blocks_capture(*s)) return ACL_ERROR_RT_STREAM_CAPTURED;
    aclError error = ACL_SUCCESS;
    if (!wait_for_stream(*s, timeout, error)) return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    return error;
}

// The stream is complete when nothing issued to it is still held behind a collective and its last
// task has ended on the simulated timeline (wall clock: the host's time; virtual: the virtual clock,
// which only host calls and synchronisation advance). A query does not wait and changes nothing.
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
    NPUSIM_FAULT_RETURN("aclrtStreamQuery", aclError);
    ACL_API_BEGIN(aclrtStreamQuery);
    if (status == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    const bool done = s->queue().idle() && s->tail_ns() <= sim_clock().now();
    *status = done ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtStreamGetId", aclError, stream, streamId);
    ACL_API_BEGIN(aclrtStreamGetId);
    if (streamId == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    *streamId = s->id();
    return ACL_SUCCESS;
}
