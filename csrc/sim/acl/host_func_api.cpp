// Host work on a stream. The stream gets a HostFunc task at its place in the
// stream's order, and the function runs at once on the calling thread. (A real
// runtime runs it on a callback thread when the stream reaches the task; the
// simulator executes eagerly, like its copies, and models only the timeline.)
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/enum_value.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"
#include "core/unsupported.h"

using namespace acl;

namespace {

aclError launch_host_work(aclrtStream stream, void (*fn)(void*), void* arg) {
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    // The device's part is a placeholder task that hands control to the host and back. On a
    // capturing stream the function is recorded and runs at each execution of the model.
    return issue_task(
        *device, *s, plain_task(npusim::TaskKind::HostFunc, soc().task_overhead_ns, stars::kPlaceHolder),
        TaskType::HostFunc, [] { return uint64_t(0); }, [fn, arg] { fn(arg); });
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream) {
    NPUSIM_FAULT_RETURN("aclrtLaunchCallback", aclError);
    ACL_API_BEGIN(aclrtLaunchCallback);
    if (fn == nullptr || (raw_value(blockType) != ACL_CALLBACK_NO_BLOCK && raw_value(blockType) != ACL_CALLBACK_BLOCK))
        return ACL_ERROR_INVALID_PARAM;
    return launch_host_work(stream, fn, userData);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
    NPUSIM_FAULT_RETURN("aclrtLaunchHostFunc", aclError);
    ACL_API_BEGIN(aclrtLaunchHostFunc);
    if (fn == nullptr) return ACL_ERROR_INVALID_PARAM;
    return launch_host_work(stream, fn, args);
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout) {
    NPUSIM_FAULT_RETURN("aclrtProcessReport", aclError);
    ACL_API_BEGIN(aclrtProcessReport);
    if (timeout < -1) return ACL_ERROR_INVALID_PARAM;
    NPUSIM_RETURN_UNSUPPORTED("callbacks and host functions run on the calling thread, so no report is ever pending",
                              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}
