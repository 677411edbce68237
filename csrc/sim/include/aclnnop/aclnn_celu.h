/*
 * aclnnCelu, aclnnInplaceCelu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CELU_H
#define NPU_SIM_ACLNNOP_ACLNN_CELU_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceCelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CELU_H */
