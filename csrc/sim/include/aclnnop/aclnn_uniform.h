/*
 * aclnnInplaceUniform: fills selfRef with numbers uniform in [from, to) from the device RNG's stream of
 * (seed, offset).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UNIFORM_H
#define NPU_SIM_ACLNNOP_ACLNN_UNIFORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor* selfRef, double from, double to,
    uint64_t seed, uint64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceUniform(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UNIFORM_H */
