/*
 * aclnnBatchNorm: batch normalisation of input [N, C, *] per channel. Training: the batch statistics
 * (saveMean, saveInvstd = 1 / sqrt(biased variance + eps)) normalise, and runningMean / runningVar (when
 * given) move by momentum toward the batch mean and the unbiased variance. Eval: runningMean and
 * runningVar normalise. weight and bias [C] may be NULL.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BATCH_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_BATCH_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
    const aclTensor* bias, aclTensor* runningMean, aclTensor* runningVar, bool training, double momentum,
    double eps, aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BATCH_NORM_H */
