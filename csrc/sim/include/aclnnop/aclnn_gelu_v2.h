/*
 * aclnnGeluV2: GELU with the approximation chosen by `approximate`: 0 the erf form x * Phi(x)
 * (torch's approximate="none"), 1 the tanh form 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GELU_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_GELU_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GELU_V2_H */
