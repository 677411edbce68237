/*
 * aclnnHardswishBackwardV2: gradOutput * (0 below -3, x / 3 + 0.5 up to 3, 1 above), torch's derivative
 * (the form torch_npu takes when it exists).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_HARDSWISH_BACKWARD_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_HARDSWISH_BACKWARD_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardswishBackwardV2GetWorkspaceSize(const aclTensor* gradOutput,
    const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardswishBackwardV2(void* workspace, uint64_t workspaceSize,
    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_HARDSWISH_BACKWARD_V2_H */
