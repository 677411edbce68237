// Interposed kernel launches (all report cbid LAUNCH). The KERNEL records come
// from CANN (task track) and the device (STARS logs). A launch whose ENTER/EXIT
// callbacks are wanted runs in a correlation scope of its own, which gives them
// the call's id; any other launch runs in a launch scope, which gives its records
// one id just the same without the scope's clock reads (activity/correlation.h).
// Either way a successful launch whose task track never reached msPTI is counted
// (report_route::CountUntrackedLaunch).
#include "activity/correlation.h"
#include "callback/subscriber.h"
#include "interpose/report_route.h"
#include "interpose/wrapper.h"
#include "mspti/mspti_cbid.h"
#include "mspti/mspti_ext.h"

namespace {

MSPTI_REAL_ACL(aclrtLaunchKernel);
MSPTI_REAL_ACL(aclrtLaunchKernelV2);
MSPTI_REAL_ACL(aclrtLaunchKernelWithConfig);
MSPTI_REAL_ACL(aclrtLaunchKernelWithHostArgs);

using mspti::interpose::CallTimes;

// After the real launch, inside its scope: one thread-local load when the track came, as it does.
struct CheckTracked {
    void operator()(aclError result, uint64_t, const CallTimes&) const {
        if (__builtin_expect(result == ACL_SUCCESS && !mspti::activity::CurrentScopeTracked(), 0)) {
            mspti::interpose::report_route::CountUntrackedLaunch();
        }
    }
};

// A launch that no callback observes: its scope reads no clock.
template <typename Fn, typename... Args>
[[gnu::noinline]] aclError LaunchUnobserved(Fn fn, const char* name, Args... args) noexcept {
    if (fn == nullptr) return mspti::interpose::MissingFunction(name, ACL_ERROR_INTERNAL_ERROR);
    const mspti::activity::LaunchScope scope;
    const aclError result = fn(args...);
    CheckTracked{}(result, 0, mspti::interpose::CallTimes{});
    return result;
}

// The launch family's interposer: the real function alone while nothing is observed, in a launch
// scope while no callback of LAUNCH is wanted, else the observed call with its scope and callbacks.
// `params()` makes the callbacks' parameters, only on the path that has callbacks.
template <typename Fn, typename MakeParams, typename... Args>
[[gnu::always_inline]] inline aclError InterceptLaunch(const mspti::seam::CannFunction<Fn>& real, const char* name,
                                                       MakeParams params, Args... args) noexcept {
    const Fn fn = real.get();
    if (__builtin_expect(!mspti::call_gate::Observed(), 1)) {
        if (fn != nullptr) return fn(args...);
        return mspti::interpose::MissingFunction(name, ACL_ERROR_INTERNAL_ERROR);
    }
    if (!mspti::callback::Subscriber::Instance().WantsCallback(MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_LAUNCH)) {
        return LaunchUnobserved(fn, name, args...);
    }
    return mspti::interpose::InterceptObserved<aclError>(fn, ACL_ERROR_INTERNAL_ERROR, MSPTI_CB_DOMAIN_RUNTIME,
                                                         MSPTI_CBID_RUNTIME_LAUNCH, name, params(), false,
                                                         CheckTracked{}, args...);
}

}  // namespace

// The interposed definitions are the library's exported interface: exported here, not through the
// header's ACL_FUNC_VISIBILITY, which CANN's headers leave empty outside CANN's own build.
#pragma GCC visibility push(default)
extern "C" {

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                           aclrtStream stream) {
    const auto params = [&] {
        return msptiRuntimeLaunchKernelParams{funcHandle, numBlocks, argsData, argsSize, stream};
    };
    return InterceptLaunch(real_aclrtLaunchKernel, "aclrtLaunchKernel", params, funcHandle, numBlocks, argsData,
                           argsSize, stream);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                             aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
    const auto params = [&] {
        return msptiRuntimeLaunchKernelV2Params{funcHandle, numBlocks, argsData, argsSize, cfg, stream};
    };
    return InterceptLaunch(real_aclrtLaunchKernelV2, "aclrtLaunchKernelV2", params, funcHandle, numBlocks, argsData,
                           argsSize, cfg, stream);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve) {
    const auto params = [&] {
        return msptiRuntimeLaunchKernelWithConfigParams{funcHandle, numBlocks, stream, cfg, argsHandle, reserve};
    };
    return InterceptLaunch(real_aclrtLaunchKernelWithConfig, "aclrtLaunchKernelWithConfig", params, funcHandle,
                           numBlocks, stream, cfg, argsHandle, reserve);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum) {
    const auto params = [&] {
        return msptiRuntimeLaunchKernelWithHostArgsParams{funcHandle, numBlocks, stream,           cfg,
                                                          hostArgs,   argsSize,  placeHolderArray, placeHolderNum};
    };
    return InterceptLaunch(real_aclrtLaunchKernelWithHostArgs, "aclrtLaunchKernelWithHostArgs", params, funcHandle,
                           numBlocks, stream, cfg, hostArgs, argsSize, placeHolderArray, placeHolderNum);
}

}  // extern "C"
#pragma GCC visibility pop

// The counting stand-ins while CANN cannot report tasks (interpose/report_route.h).
void mspti::interpose::report_route::RedirectLaunches(bool on) {
    using mspti::interpose::report_route::Counting;
    if (!on) {
        real_aclrtLaunchKernel.Restore();
        real_aclrtLaunchKernelV2.Restore();
        real_aclrtLaunchKernelWithConfig.Restore();
        real_aclrtLaunchKernelWithHostArgs.Restore();
        return;
    }
    real_aclrtLaunchKernel.Redirect(&Counting<decltype(&::aclrtLaunchKernel)>::Call<real_aclrtLaunchKernel>);
    real_aclrtLaunchKernelV2.Redirect(&Counting<decltype(&::aclrtLaunchKernelV2)>::Call<real_aclrtLaunchKernelV2>);
    real_aclrtLaunchKernelWithConfig.Redirect(
        &Counting<decltype(&::aclrtLaunchKernelWithConfig)>::Call<real_aclrtLaunchKernelWithConfig>);
    real_aclrtLaunchKernelWithHostArgs.Redirect(
        &Counting<decltype(&::aclrtLaunchKernelWithHostArgs)>::Call<real_aclrtLaunchKernelWithHostArgs>);
}
