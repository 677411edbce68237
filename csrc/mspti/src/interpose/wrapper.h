// The common shape of every interposed function: resolve the real function
// (dlsym on the CANN library's own handle, never our wrapper), open the call
// (correlation scope + ENTER), call it, make the call's host records, EXIT,
// return the real result untouched. While nothing observes the calls
// (common/call_gate.h), the real function is all an interposer calls. Nothing of msPTI's may fail the
// application's call: a missing real function returns the API's documented
// internal error, and an exception inside msPTI is contained here.
#pragma once

#include <acl/acl_rt.h>

#include <cstdint>

#include "callback/api_call.h"
#include "common/call_gate.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "cann/library_loader.h"

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

// An observed call: correlation scope, ENTER, the real call, its host records, EXIT.
// `timed`: whether `record` needs the host times around the real call. Out of line, so that
// the unobserved path of the caller sets up no frame for it; `params` by value, so that the caller
// builds them only on this path.
template <typename Result, typename Fn, typename Params, typename Record, typename... Args>
[[gnu::noinline]] Result InterceptObserved(Fn fn, Result missing, msptiCallbackDomain domain, uint32_t cbid,
                                           const char* name, const Params params, bool timed, Record&& record,
                                           Args... args) noexcept {
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

// While nothing observes the calls (msPTI loaded, nothing enabled) the real function is called
// directly, a tail call after one relaxed load.
template <typename Result, typename Fn, typename Params, typename Record, typename... Args>
[[gnu::always_inline]] inline Result Intercept(const seam::CannFunction<Fn>& real, Result missing,
                                               msptiCallbackDomain domain, uint32_t cbid, const char* name,
                                               const Params& params, bool timed, Record&& record,
                                               Args... args) noexcept {
    const Fn fn = real.get();
    if (__builtin_expect(!call_gate::Observed(), 1)) {
        if (fn != nullptr) return fn(args...);
        return MissingFunction(name, missing);
    }
    return InterceptObserved<Result>(fn, missing, domain, cbid, name, params, timed, static_cast<Record&&>(record),
                                     args...);
}

template <typename Fn, typename Params, typename Record, typename... Args>
[[gnu::always_inline]] inline aclError InterceptRuntime(const seam::CannFunction<Fn>& real, uint32_t cbid,
                                                        const char* name, const Params& params, bool timed,
                                                        Record&& record, Args... args) noexcept {
    return Intercept<aclError>(real, ACL_ERROR_INTERNAL_ERROR, MSPTI_CB_DOMAIN_RUNTIME, cbid, name, params, timed,
                               static_cast<Record&&>(record), args...);
}

}  // namespace mspti::interpose

// Declares the real-function handle of an aclrt* function.
#define MSPTI_REAL_ACL(fn) \
    ::mspti::seam::CannFunction<decltype(&::fn)> real_##fn { ::mspti::seam::CannLibrary::kAcl, #fn }
