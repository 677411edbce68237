/*
 * aclnnLeakyReluBackward: gradOutput where self > 0, else gradOutput * negativeSlope (self may be
 * the forward's result: a positive slope keeps the sign).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(const aclTensor* gradOutput,
    const aclTensor* self, const aclScalar* negativeSlope, bool selfIsResult, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeakyReluBackward(void* workspace, uint64_t workspaceSize,
    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H */
