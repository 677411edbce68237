// The kernel launch family. This is the hot path: with profiling off a launch
// resolves two encoded handles, computes the modelled duration and schedules
// one task, with no allocation, string lookup or system call.
#include <algorithm>
#include <cmath>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/enum_value.h"
#include "acl/kernel_objects.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"
#include "core/launch_hint.h"

using namespace acl;
using npusim::CoreType;

namespace {

// Applies a launch configuration; only the engine type changes what the simulator does.
aclError apply_config(const aclrtLaunchKernelCfg* cfg, CoreType& core) {
    if (cfg == nullptr) return ACL_SUCCESS;
    if (cfg->numAttrs > 0 && cfg->attrs == nullptr) return ACL_ERROR_INVALID_PARAM;
    for (size_t i = 0; i < cfg->numAttrs; ++i) {
        const aclrtLaunchKernelAttr& attr = cfg->attrs[i];
        switch (raw_value(attr.id)) {
            case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
                if (raw_value(attr.value.engineType) == ACL_RT_ENGINE_TYPE_AIC) core = CoreType::AIC;
                else if (raw_value(attr.value.engineType) == ACL_RT_ENGINE_TYPE_AIV) core = CoreType::AIV;
                else return ACL_ERROR_INVALID_PARAM;
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
            case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
            case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
            case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
            case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
            case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING: break;
            default: return ACL_ERROR_INVALID_PARAM;
        }
    }
    return ACL_SUCCESS;
}

aclError launch(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, const aclrtLaunchKernelCfg* cfg) {
    if (funcHandle == nullptr || numBlocks == 0) return ACL_ERROR_INVALID_PARAM;
    const Function* fn = functions().find(funcHandle);
    if (fn == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    CoreType core = fn->core;
    // An operator library may describe this launch (FLOPs, bytes, core type); the hint
    // applies to this one launch and replaces the function's cost-table entry.
    npusim::LaunchHint hint;
    const bool hinted = npusim::take_launch_hint(hint);
    if (hinted && hint.core != CoreType::Inherit) core = hint.core;
    if (const aclError rc = apply_config(cfg, core); rc != ACL_SUCCESS) return rc;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    npusim::TaskDesc desc;
    desc.kind = npusim::TaskKind::Kernel;
    desc.core = core;
    desc.block_dim = numBlocks;
    desc.track_blocks = core == CoreType::AICPU ? 0 : static_cast<uint16_t>(std::min<uint32_t>(numBlocks, 0xFFFFu));
    if (hinted) {
        npusim::KernelCost op_cost;
        op_cost.flops = hint.flops;
        op_cost.bytes = hint.bytes;
        op_cost.duration_ns = hint.duration_ns > 0 ? static_cast<uint64_t>(std::llround(hint.duration_ns)) : 0;
        desc.pipes = device->kernel_time(op_cost, core, numBlocks);
        if (op_cost.duration_ns != 0) {  // the operator's own terms, within its duration
            desc.pipes.compute_ns = std::min(op_cost.duration_ns, static_cast<uint64_t>(std::llround(hint.compute_ns)));
            desc.pipes.memory_ns = std::min(op_cost.duration_ns, static_cast<uint64_t>(std::llround(hint.memory_ns)));
            desc.pipes.bytes = desc.pipes.memory_ns != 0 ? static_cast<uint64_t>(std::llround(hint.bytes)) : 0;
        }
        desc.pipes.dtype = hint.dtype;
    } else {
        desc.pipes = device->kernel_time(*fn->cost, core, numBlocks);
    }
    desc.duration_ns = desc.pipes.total_ns();
    desc.stars_task_type = core == CoreType::AICPU ? stars::kAiCpu : stars::kAiCore;
    return issue_task(*device, *s, desc, kernel_task_type(core), [fn] { return fn->hash_id(); }, [] {});
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                                               size_t argsSize, aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtLaunchKernel", aclError, funcHandle, numBlocks, argsData, argsSize, stream);
    ACL_API_BEGIN(aclrtLaunchKernel);
    if (argsData == nullptr && argsSize > 0) return ACL_ERROR_INVALID_PARAM;
    return launch(funcHandle, numBlocks, stream, nullptr);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtLaunchKernelV2", aclError, funcHandle, numBlocks, argsData, argsSize, cfg, stream);
    ACL_API_BEGIN(aclrtLaunchKernelV2);
    if (argsData == nullptr && argsSize > 0) return ACL_ERROR_INVALID_PARAM;
    return launch(funcHandle, numBlocks, stream, cfg);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                                         aclrtArgsHandle argsHandle, void* reserve) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtLaunchKernelWithConfig", aclError, funcHandle, numBlocks, stream, cfg, argsHandle,
                             reserve);
    ACL_API_BEGIN(aclrtLaunchKernelWithConfig);
    if (argsHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    const KernelArgs* args = kernel_args().find(argsHandle);
    if (args == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    // The list must be complete and built for this function.
    if (!args->finalized || args->function != funcHandle) return ACL_ERROR_INVALID_PARAM;
    return launch(funcHandle, numBlocks, stream, cfg);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                                           void* hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo* placeHolderArray,
                                                           size_t placeHolderNum) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtLaunchKernelWithHostArgs", aclError, funcHandle, numBlocks, stream, cfg, hostArgs,
                             argsSize, placeHolderArray, placeHolderNum);
    ACL_API_BEGIN(aclrtLaunchKernelWithHostArgs);
    if ((hostArgs == nullptr && argsSize > 0) || (placeHolderArray == nullptr && placeHolderNum > 0))
        return ACL_ERROR_INVALID_PARAM;
    // Each placeholder names an address slot and the data it will point at, both inside the arguments.
    for (size_t i = 0; i < placeHolderNum; ++i) {
        const aclrtPlaceHolderInfo& p = placeHolderArray[i];
        if (argsSize < sizeof(void*) || p.addrOffset > argsSize - sizeof(void*) || p.dataOffset > argsSize)
            return ACL_ERROR_INVALID_PARAM;
    }
    return launch(funcHandle, numBlocks, stream, cfg);
}
