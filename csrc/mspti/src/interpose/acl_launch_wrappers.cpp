// Interposed kernel launches (all report cbid LAUNCH). The KERNEL records come
// from CANN (task track) and the device (STARS logs); the wrapper's
// correlation scope gives them the launch call's id. A successful launch whose
// task track never reached msPTI is counted (report_route::CountUntrackedLaunch).
#include "activity/correlation.h"
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
using mspti::interpose::InterceptRuntime;

// After the real launch, inside its scope: one thread-local load when the track came, as it does.
struct CheckTracked {
    void operator()(aclError result, uint64_t, const CallTimes&) const {
        if (__builtin_expect(result == ACL_SUCCESS && !mspti::activity::CurrentScopeTracked(), 0)) {
            mspti::interpose::report_route::CountUntrackedLaunch();
        }
    }
};

}  // namespace

extern "C" {

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                           aclrtStream stream) {
    const msptiRuntimeLaunchKernelParams params{funcHandle, numBlocks, argsData, argsSize, stream};
    return InterceptRuntime(real_aclrtLaunchKernel, MSPTI_CBID_RUNTIME_LAUNCH, "aclrtLaunchKernel", params, false,
                            CheckTracked{}, funcHandle, numBlocks, argsData, argsSize, stream);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                             aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
    const msptiRuntimeLaunchKernelV2Params params{funcHandle, numBlocks, argsData, argsSize, cfg, stream};
    return InterceptRuntime(real_aclrtLaunchKernelV2, MSPTI_CBID_RUNTIME_LAUNCH, "aclrtLaunchKernelV2", params, false,
                            CheckTracked{}, funcHandle, numBlocks, argsData, argsSize, cfg, stream);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve) {
    const msptiRuntimeLaunchKernelWithConfigParams params{funcHandle, numBlocks, stream, cfg, argsHandle, reserve};
    return InterceptRuntime(real_aclrtLaunchKernelWithConfig, MSPTI_CBID_RUNTIME_LAUNCH, "aclrtLaunchKernelWithConfig",
                            params, false, CheckTracked{}, funcHandle, numBlocks, stream, cfg, argsHandle, reserve);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum) {
    const msptiRuntimeLaunchKernelWithHostArgsParams params{funcHandle, numBlocks,        stream,        cfg,
                                                            hostArgs,   argsSize,         placeHolderArray,
                                                            placeHolderNum};
    return InterceptRuntime(real_aclrtLaunchKernelWithHostArgs, MSPTI_CBID_RUNTIME_LAUNCH,
                            "aclrtLaunchKernelWithHostArgs", params, false, CheckTracked{}, funcHandle, numBlocks, stream,
                            cfg, hostArgs, argsSize, placeHolderArray, placeHolderNum);
}

}  // extern "C"

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
