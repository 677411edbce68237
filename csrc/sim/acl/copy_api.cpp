// Copies. Data really moves (memmove, so overlapping ranges are safe) at the
// call, for synchronous and asynchronous copies alike: the simulator executes
// functionally and eagerly, and only the timeline is modelled. A synchronous
// copy is not a stream task; its modelled duration is charged to the calling
// host thread, and (while a profiler collects task times) it is reported as a
// memcpy task that ran inside the call (report_call_task in task_submit.h). An asynchronous copy is a Memcpy task on its stream (memcpy info,
// task track and STARS logs like any stream task); on a capturing stream its
// data moves at each execution of the model instead.
#include <algorithm>
#include <cstring>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/copy_plan.h"
#include "acl/enum_value.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

// A validated copy: where its bytes are and which device's model times it.
struct Copy {
    CopyPlan plan;
    int64_t device = -1;
};

// Checks a 1-D copy (rows == 1) or a 2-D copy (rows rows of `width` bytes).
aclError validate(void* dst, size_t dst_span, const void* src, size_t src_span, int32_t kind, Copy& copy) {
    if (const aclError rc = plan_copy(dst, src, kind, copy.plan); rc != ACL_SUCCESS) return rc;
    int64_t src_device = -1, dst_device = -1;
    if (const aclError rc = check_side(src, src_span, copy.plan.src, &src_device); rc != ACL_SUCCESS) return rc;
    if (const aclError rc = check_side(dst, dst_span, copy.plan.dst, &dst_device); rc != ACL_SUCCESS) return rc;
    copy.device = dst_device >= 0 ? dst_device : src_device;
    return ACL_SUCCESS;
}

void copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    for (size_t row = 0; row < height; ++row) std::memmove(d + row * dpitch, s + row * spitch, width);
}

// The runtime's copy kind (SEAM_RT_MEMCPY_*) of an ACL copy kind, as its memcpy info reports it.
uint16_t runtime_direction(int32_t kind) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: return SEAM_RT_MEMCPY_HOST_TO_HOST;
        case ACL_MEMCPY_HOST_TO_DEVICE:
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return SEAM_RT_MEMCPY_HOST_TO_DEVICE;
        case ACL_MEMCPY_DEVICE_TO_HOST: return SEAM_RT_MEMCPY_DEVICE_TO_HOST;
        case ACL_MEMCPY_DEVICE_TO_DEVICE: return SEAM_RT_MEMCPY_DEVICE_TO_DEVICE;
        case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return SEAM_RT_MEMCPY_ADDR_DEVICE_TO_DEVICE;
        default: return SEAM_RT_MEMCPY_DEFAULT;
    }
}

// Synchronous: the copy's device model (or the current device's, host to host) times it on the host.
aclError sync_copy(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   int32_t kind) {
    npusim::Device* current = nullptr;
    if (const aclError rc = current_device(current); rc != ACL_SUCCESS) return rc;
    size_t dst_span = 0, src_span = 0;
    if (!span_2d(dpitch, width, height, dst_span) || !span_2d(spitch, width, height, src_span))
        return ACL_ERROR_INVALID_PARAM;
    Copy copy;
    if (const aclError rc = validate(dst, dst_span, src, src_span, kind, copy); rc != ACL_SUCCESS) return rc;
    if (const aclError rc = capture::check_unsafe_call(); rc != ACL_SUCCESS) return rc;
    const uint64_t start = sim_clock().now();
    copy_rows(dst, dpitch, src, spitch, width, height);
    npusim::Device& timing = copy.device >= 0 ? *platform().device(copy.device) : *current;
    const uint64_t bytes = uint64_t(width) * height;
    const uint64_t duration = copy_duration_ns(timing, copy.plan.path, bytes, false);
    charge_host(start, duration);
    if (copy.device >= 0) {
        // A copy that involves a device is a memcpy task of that device, reported as CANN does (a
        // host-to-host copy is no device's work). Its end never lies after the call's.
        prof::report_memcpy_info(timing.id(), bytes, runtime_direction(kind));
        report_call_task(timing, start, std::min(start + duration, sim_clock().now()), TaskType::MemcpyAsync);
    }
    return ACL_SUCCESS;
}

// Host memory that is not a registered (pinned) allocation: the side that makes an asynchronous
// copy potentially unsafe while a capture is in progress.
bool pageable(Side side, const void* ptr) {
    npusim::Allocation a;
    return side == Side::Host && !platform().memory().find(ptr, 1, &a);
}

aclError async_copy(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int32_t kind,
                    aclrtStream stream) {
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    size_t dst_span = 0, src_span = 0;
    if (!span_2d(dpitch, width, height, dst_span) || !span_2d(spitch, width, height, src_span))
        return ACL_ERROR_INVALID_PARAM;
    Copy copy;
    if (const aclError rc = validate(dst, dst_span, src, src_span, kind, copy); rc != ACL_SUCCESS) return rc;
    if (capture::any_capturing() && (pageable(copy.plan.src, src) || pageable(copy.plan.dst, dst))) {
        if (const aclError rc = capture::check_unsafe_call(); rc != ACL_SUCCESS) return rc;
    }
    const uint64_t duration = copy_duration_ns(*device, copy.plan.path, uint64_t(width) * height, true);
    prof::report_memcpy_info(device->id(), uint64_t(width) * height, runtime_direction(kind));
    return issue_task(
        *device, *s, plain_task(npusim::TaskKind::Memcpy, duration, stars::kSdma), TaskType::MemcpyAsync,
        [] { return uint64_t(0); }, [=] { copy_rows(dst, dpitch, src, spitch, width, height); }, {dst, src});
}

aclError check_1d(void* dst, size_t destMax, const void* src, size_t count) {
    if (dst == nullptr || src == nullptr || count > destMax) return ACL_ERROR_INVALID_PARAM;
    return ACL_SUCCESS;
}

aclError check_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) {
    if (dst == nullptr || src == nullptr || width == 0 || height == 0 || dpitch < width || spitch < width)
        return ACL_ERROR_INVALID_PARAM;
    return ACL_SUCCESS;
}

// Nothing to move: only the kind is checked, and no time passes.
aclError empty_copy(const void* dst, const void* src, int32_t kind) {
    CopyPlan plan;
    return plan_copy(dst, src, kind, plan);
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMemcpy", aclError, dst, destMax, src, count, kind);
    ACL_API_BEGIN(aclrtMemcpy);
    if (const aclError rc = check_1d(dst, destMax, src, count); rc != ACL_SUCCESS) return rc;
    if (count == 0) return empty_copy(dst, src, raw_value(kind));
    return sync_copy(dst, count, src, count, count, 1, raw_value(kind));
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMemcpyAsync", aclError, dst, destMax, src, count, kind, stream);
    ACL_API_BEGIN(aclrtMemcpyAsync);
    if (const aclError rc = check_1d(dst, destMax, src, count); rc != ACL_SUCCESS) return rc;
    if (count == 0) return empty_copy(dst, src, raw_value(kind));
    return async_copy(dst, count, src, count, count, 1, raw_value(kind), stream);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMemcpy2d", aclError, dst, dpitch, src, spitch, width, height, kind);
    ACL_API_BEGIN(aclrtMemcpy2d);
    if (const aclError rc = check_2d(dst, dpitch, src, spitch, width, height); rc != ACL_SUCCESS) return rc;
    return sync_copy(dst, dpitch, src, spitch, width, height, raw_value(kind));
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                                size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtMemcpy2dAsync", aclError, dst, dpitch, src, spitch, width, height, kind, stream);
    ACL_API_BEGIN(aclrtMemcpy2dAsync);
    if (const aclError rc = check_2d(dst, dpitch, src, spitch, width, height); rc != ACL_SUCCESS) return rc;
    return async_copy(dst, dpitch, src, spitch, width, height, raw_value(kind), stream);
}
