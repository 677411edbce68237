// The common shape of every interposed function: resolve the real function
// (dlsym on the CANN library's own handle, never our wrapper), open the call
// (correlation scope + ENTER), call it, make the call's host records, EXIT,
// return the real result untouched. Nothing of msPTI's may fail the
// application's call: a missing real function returns the API's documented
// internal error, and an exception inside msPTI is contained here.
#pragma once

#include <acl/acl_rt.h>

#include <cstdint>

#include "callback/api_call.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "seam/library_loader.h"

namespace mspti::interpose {

struct CallTimes {
    uint64_t start = 0;
    uint64_t end = 0;
};

// No host record for this call.
struct NoRecord {
    template <typename R>
    void operator()(R, uint64_t, const CallTimes&) const {}
};

template <typename Result>
Result MissingFunction(const char* name, Result error) {
    MSPTI_LOGE("the real %s is not available", name);
    return error;
}

// `timed`: whether `record` needs the host times around the real call.
template <typename Result, typename Fn, typename Params, typename Record, typename... Args>
Result Intercept(const seam::CannFunction<Fn>& real, Result missing, msptiCallbackDomain domain, uint32_t cbid,
                 const char* name, const Params& params, bool timed, Record&& record, Args... args) noexcept {
    const Fn fn = real.get();
    Result result = missing;
    bool called = false;
    try {
        callback::ApiCall call(domain, cbid, name, &params);
        CallTimes times;
        if (timed) times.start = host_clock::Now();
        result = fn != nullptr ? fn(args...) : MissingFunction(name, missing);
        called = true;
        if (timed) times.end = host_clock::Now();
        record(result, call.correlation_id(), times);
        call.Exit(&result);
    } catch (...) {
        if (!called) result = fn != nullptr ? fn(args...) : missing;
    }
    return result;
}

template <typename Fn, typename Params, typename Record, typename... Args>
aclError InterceptRuntime(const seam::CannFunction<Fn>& real, uint32_t cbid, const char* name, const Params& params,
                          bool timed, Record&& record, Args... args) noexcept {
    return Intercept<aclError>(real, ACL_ERROR_INTERNAL_ERROR, MSPTI_CB_DOMAIN_RUNTIME, cbid, name, params, timed,
                               static_cast<Record&&>(record), args...);
}

}  // namespace mspti::interpose

// Declares the real-function handle of an aclrt* function.
#define MSPTI_REAL_ACL(fn) \
    ::mspti::seam::CannFunction<decltype(&::fn)> real_##fn { ::mspti::seam::CannLibrary::kAcl, #fn }
