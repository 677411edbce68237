// Interposed copies and fills. Synchronous calls: MEMCPY and MEMSET records
// timed around the host call (the runtime's report of the call's task gives
// no second record). Asynchronous calls: the record comes from the
// copy's stream task with its device times (reports/copy_tasks.h), with the fields
// of the call's arguments; only a call whose task track was not queued (no
// subscriber, its device not collecting) gets a record timed around the call.
#include "activity/kinds.h"
#include "interpose/memory_reporter.h"
#include "interpose/wrapper.h"
#include "mspti/mspti_cbid.h"
#include "mspti/mspti_ext.h"
#include "reports/copy_tasks.h"

namespace {

MSPTI_REAL_ACL(aclrtMemcpy);
MSPTI_REAL_ACL(aclrtMemcpyAsync);
MSPTI_REAL_ACL(aclrtMemcpy2d);
MSPTI_REAL_ACL(aclrtMemcpy2dAsync);
MSPTI_REAL_ACL(aclrtMemset);
MSPTI_REAL_ACL(aclrtMemsetAsync);

using mspti::interpose::CallTimes;
using mspti::interpose::InterceptRuntime;
namespace memory = mspti::interpose::memory;

bool MemcpyOn() { return mspti::activity::Enabled(MSPTI_ACTIVITY_KIND_MEMCPY); }
bool MemsetOn() { return mspti::activity::Enabled(MSPTI_ACTIVITY_KIND_MEMSET); }

using mspti::seam::copies::InterposedCall;

auto Copy(aclrtMemcpyKind kind, uint64_t bytes, bool async, aclrtStream stream) {
    return [=](aclError ret, uint64_t correlation_id, const CallTimes& t) {
        if (ret == ACL_SUCCESS) memory::ReportMemcpy(correlation_id, t.start, t.end, kind, bytes, async, stream);
    };
}

auto Fill(int32_t value, uint64_t bytes, bool async, aclrtStream stream) {
    return [=](aclError ret, uint64_t correlation_id, const CallTimes& t) {
        if (ret == ACL_SUCCESS) memory::ReportMemset(correlation_id, t.start, t.end, value, bytes, async, stream);
    };
}

// Asynchronous: the host record only if the copy's device half is not coming.
auto AsyncCopy(const InterposedCall& device, aclrtMemcpyKind kind, uint64_t bytes, aclrtStream stream) {
    return [&device, kind, bytes, stream](aclError ret, uint64_t correlation_id, const CallTimes& t) {
        if (ret == ACL_SUCCESS && !device.OnDevice()) {
            memory::ReportMemcpy(correlation_id, t.start, t.end, kind, bytes, true, stream);
        }
    };
}

auto AsyncFill(const InterposedCall& device, int32_t value, uint64_t bytes, aclrtStream stream) {
    return [&device, value, bytes, stream](aclError ret, uint64_t correlation_id, const CallTimes& t) {
        if (ret == ACL_SUCCESS && !device.OnDevice()) {
            memory::ReportMemset(correlation_id, t.start, t.end, value, bytes, true, stream);
        }
    };
}

InterposedCall CopyCall(bool on, aclrtMemcpyKind kind, uint64_t bytes, bool sync = false) {
    return InterposedCall(on ? MSPTI_ACTIVITY_KIND_MEMCPY : MSPTI_ACTIVITY_KIND_INVALID,
                          static_cast<uint32_t>(memory::CopyKind(kind)), bytes, sync);
}

InterposedCall FillCall(bool on, int32_t value, uint64_t bytes, bool sync = false) {
    return InterposedCall(on ? MSPTI_ACTIVITY_KIND_MEMSET : MSPTI_ACTIVITY_KIND_INVALID, static_cast<uint32_t>(value),
                          bytes, sync);
}

}  // namespace

// The interposed definitions are the library's exported interface: exported here, not through the
// header's ACL_FUNC_VISIBILITY, which CANN's headers leave empty outside CANN's own build.
#pragma GCC visibility push(default)
extern "C" {

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    const msptiRuntimeMemcpyParams params{dst, destMax, src, count, kind};
    const bool on = MemcpyOn();
    const InterposedCall call = CopyCall(on, kind, count, true);  // the runtime's report of its task gives no record
    return InterceptRuntime(real_aclrtMemcpy, MSPTI_CBID_RUNTIME_MEMCPY, "aclrtMemcpy", params, on,
                            Copy(kind, count, false, nullptr), dst, destMax, src, count, kind);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    const msptiRuntimeMemcpyAsyncParams params{dst, destMax, src, count, kind, stream};
    const bool on = MemcpyOn();
    const InterposedCall device = CopyCall(on, kind, count);
    return InterceptRuntime(real_aclrtMemcpyAsync, MSPTI_CBID_RUNTIME_MEMCPY_ASYNC, "aclrtMemcpyAsync", params, on,
                            AsyncCopy(device, kind, count, stream), dst, destMax, src, count, kind, stream);
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
    const msptiRuntimeMemcpy2dParams params{dst, dpitch, src, spitch, width, height, kind};
    const bool on = MemcpyOn();
    const InterposedCall call = CopyCall(on, kind, uint64_t{width} * height, true);
    return InterceptRuntime(real_aclrtMemcpy2d, MSPTI_CBID_RUNTIME_MEM_CPY2D, "aclrtMemcpy2d", params, on,
                            Copy(kind, uint64_t{width} * height, false, nullptr), dst, dpitch, src, spitch, width,
                            height, kind);
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
    const msptiRuntimeMemcpy2dAsyncParams params{dst, dpitch, src, spitch, width, height, kind, stream};
    const bool on = MemcpyOn();
    const InterposedCall device = CopyCall(on, kind, uint64_t{width} * height);
    return InterceptRuntime(real_aclrtMemcpy2dAsync, MSPTI_CBID_RUNTIME_MEM_CPY2D_ASYNC, "aclrtMemcpy2dAsync", params,
                            on, AsyncCopy(device, kind, uint64_t{width} * height, stream), dst, dpitch, src, spitch,
                            width, height, kind, stream);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    const msptiRuntimeMemsetParams params{devPtr, maxCount, value, count};
    const bool on = MemsetOn();
    const InterposedCall call = FillCall(on, value, count, true);
    return InterceptRuntime(real_aclrtMemset, MSPTI_CBID_RUNTIME_MEM_SET, "aclrtMemset", params, on,
                            Fill(value, count, false, nullptr), devPtr, maxCount, value, count);
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    const msptiRuntimeMemsetAsyncParams params{devPtr, maxCount, value, count, stream};
    const bool on = MemsetOn();
    const InterposedCall device = FillCall(on, value, count);
    return InterceptRuntime(real_aclrtMemsetAsync, MSPTI_CBID_RUNTIME_MEM_SET_ASYNC, "aclrtMemsetAsync", params, on,
                            AsyncFill(device, value, count, stream), devPtr, maxCount, value, count, stream);
}

}  // extern "C"
#pragma GCC visibility pop
