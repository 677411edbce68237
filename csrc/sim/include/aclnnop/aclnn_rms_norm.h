/* aclnnRmsNorm: RMS normalisation over the trailing dimensions of gamma: y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + epsilon).
 * rstdOut (float32, x's shape with gamma's dimensions set to 1) may be NULL. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_RMS_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_RMS_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnRmsNorm: RMS normalisation over the trailing dimensions of gamma: y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + epsilon).
 * rstdOut (float32, x's shape with gamma's dimensions set to 1) may be NULL.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma, double epsilon, const aclTensor *yOut,
    const aclTensor *rstdOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_RMS_NORM_H */
