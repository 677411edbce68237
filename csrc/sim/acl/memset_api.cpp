// Fills: value & 0xFF into count bytes of device (or pinned host) memory, at the call
// (an asynchronous fill on a capturing stream: at each execution of the model).
#include <cstring>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/copy_plan.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

aclError check_fill(void* devPtr, size_t maxCount, size_t count) {
    if (devPtr == nullptr || count > maxCount) return ACL_ERROR_INVALID_PARAM;
    if (count == 0) return ACL_SUCCESS;
    npusim::Allocation a;
    if (!platform().memory().find(devPtr, count, &a) || a.kind == npusim::MemoryKind::Reserved)
        return ACL_ERROR_RT_PARAM_INVALID;
    return ACL_SUCCESS;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMemset", aclError, devPtr, maxCount, value, count);
    ACL_API_BEGIN(aclrtMemset);
    npusim::Device* device = nullptr;
    if (const aclError rc = check_fill(devPtr, maxCount, count); rc != ACL_SUCCESS) return rc;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    if (count == 0) return ACL_SUCCESS;
    if (const aclError rc = capture::check_unsafe_call(); rc != ACL_SUCCESS) return rc;
    const uint64_t start = sim_clock().now();
    std::memset(devPtr, value & 0xFF, count);
    const uint64_t duration = device->memset_ns(count);
    charge_host(start, duration);
    // A fill task of the device, reported as CANN does (no report carries its size or value).
    report_call_task(*device, start, std::min(start + duration, sim_clock().now()), TaskType::MemsetAsync);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMemsetAsync", aclError, devPtr, maxCount, value, count, stream);
    ACL_API_BEGIN(aclrtMemsetAsync);
    if (const aclError rc = check_fill(devPtr, maxCount, count); rc != ACL_SUCCESS) return rc;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    if (count == 0) return ACL_SUCCESS;
    return issue_task(
        *device, *s, plain_task(npusim::TaskKind::Memset, device->memset_ns(count), stars::kSdma),
        TaskType::MemsetAsync, [] { return uint64_t(0); },
        [devPtr, value, count] { std::memset(devPtr, value & 0xFF, count); }, {devPtr});
}
