// The common path of every operator: the executor the first phase prepares and the
// second phase runs. The second phase computes the result on the calling thread,
// then launches the operator's kernel(s) through libascendcl's exported
// aclrtBinaryLoadFromData / aclrtBinaryGetFunction / aclrtLaunchKernelWithHostArgs, the
// entry point CANN's operators launch through (calls that go through the PLT, so a
// preloaded profiler sees them as it would a CANN op's),
// each launch preceded by a launch hint with its FLOPs, bytes and core type, and
// followed, while node reports are on, by its node-launch report.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "aclnn/acl_meta.h"
#include "core/export.h"
#include "nnopbase/executor.h"
#include "opapi/op_costs.h"
#include "opapi/op_table.h"

namespace npusim::opapi {

struct KernelLaunch {
    Kernel kernel;
    aclDataType dtype;  // the data type the kernel is instantiated for (part of its name)
    LaunchCost cost;
};

class OpExecutor final : public aclOpExecutor {
public:
    using Compute = std::function<void()>;
    OpExecutor(const char* api, uint64_t workspace, Compute compute, std::vector<KernelLaunch> launches,
               std::vector<void*> kernel_args);
    aclnnStatus run(void* workspace, uint64_t workspace_size, aclrtStream stream) override;

private:
    Compute compute_;
    std::vector<KernelLaunch> launches_;
    std::vector<void*> kernel_args_;  // device addresses handed to the kernels (inputs, outputs)
};

// Ends a successful first phase: registers the executor and fills the out-parameters.
aclnnStatus hand_over(std::unique_ptr<OpExecutor> op, uint64_t* workspaceSize, aclOpExecutor** executor);
// The body of every aclnnXxx second-phase function.
aclnnStatus run_op(const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream);

}  // namespace npusim::opapi

// Defines the exported second-phase function of an operator.
#define OPAPI_DEFINE_RUN(Api)                                                                         \
    NPUSIM_C_EXPORT aclnnStatus Api(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                                    aclrtStream stream) {                                             \
        NPUSIM_FAULT_RETURN(#Api, aclnnStatus);                                                       \
        return ::npusim::opapi::run_op(#Api, workspace, workspaceSize, executor, stream);             \
    }
