/*
 * aclnnBatchNormBackward: the gradients of aclnnBatchNorm with respect to input, weight and bias
 * (outputMask selects them), from the saved batch statistics (training) or the running ones (eval).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H

#ifdef __cplusplus
#include <array> /* as CANN's header (a C++ header there) */
#endif
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut,
    const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean,
    const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training,
    double eps, const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize,
    aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H */
