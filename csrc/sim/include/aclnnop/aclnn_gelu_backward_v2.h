/*
 * aclnnGeluBackwardV2: gradOutput times the derivative of the GELU form named by `approximate`
 * ("none": the erf form, "tanh": the tanh form), as torch's gelu_backward.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
    char* approximate, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluBackwardV2(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H */
