// Contexts: a device plus its own default stream; making one current switches the thread's device.
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    NPUSIM_FAULT_RETURN("aclrtCreateContext", aclError);
    ACL_API_BEGIN(aclrtCreateContext);
    if (context == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    const uint32_t id = static_cast<uint32_t>(deviceId);
    npusim::Device* device = platform().device(id);
    npusim::Stream* stream = device->create_stream(0, 0);
    if (stream == nullptr) return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    void* handle = create_context(id, stream);
    if (handle == nullptr) {
        device->destroy_stream(stream);
        return ACL_ERROR_BAD_ALLOC;
    }
    // A context keeps its device open for as long as it lives.
    open_device(id);
    ThreadState& ts = thread_state();
    ts.device = deviceId;
    ts.context = handle;
    *context = handle;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context) {
    NPUSIM_FAULT_RETURN("aclrtDestroyContext", aclError);
    ACL_API_BEGIN(aclrtDestroyContext);
    if (context == nullptr) return ACL_ERROR_INVALID_PARAM;
    Context* ctx = find_context(context);
    if (ctx == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    if (ctx->primary) return ACL_ERROR_INVALID_PARAM;  // a device's own context goes with aclrtResetDevice
    const uint32_t id = ctx->device;
    npusim::Stream* stream = ctx->stream;
    if (!destroy_context(context)) return ACL_ERROR_INVALID_RESOURCE_HANDLE;  // lost a race with another destroy
    npusim::Device* device = platform().device(id);
    stream->queue().wait_idle();  // the context's work finishes first
    sim_clock().wait_until(stream->tail_ns());
    device->destroy_stream(stream);
    (void)close_device(id);
    ThreadState& ts = thread_state();
    if (ts.context == context) ts = ThreadState{};
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context) {
    NPUSIM_FAULT_RETURN("aclrtSetCurrentContext", aclError);
    ACL_API_BEGIN(aclrtSetCurrentContext);
    if (context == nullptr) return ACL_ERROR_INVALID_PARAM;
    const Context* ctx = find_context(context);
    if (ctx == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    ThreadState& ts = thread_state();
    ts.device = static_cast<int32_t>(ctx->device);
    ts.context = context;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context) {
    NPUSIM_FAULT_RETURN("aclrtGetCurrentContext", aclError);
    ACL_API_BEGIN(aclrtGetCurrentContext);
    if (context == nullptr) return ACL_ERROR_INVALID_PARAM;
    const ThreadState& ts = thread_state();
    if (ts.context == nullptr || find_context(ts.context) == nullptr) return ACL_ERROR_RT_CONTEXT_NULL;
    *context = ts.context;
    return ACL_SUCCESS;
}
