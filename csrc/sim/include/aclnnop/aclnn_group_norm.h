/*
 * aclnnGroupNorm: group normalisation of self [N, C, *] (HxW the product of the trailing dimensions) in
 * `group` groups of C / group channels: out = (self - mean) * rstd * gamma + beta, with meanOut and
 * rstdOut ([N, group], self's type) the per-group mean and 1 / sqrt(biased variance + eps).
 * The signature is CANN's. gamma and beta ([C]) may be NULL. Data types: float32, float16, bfloat16
 * (every tensor self's type).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GROUP_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_GROUP_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
    const aclTensor *beta, int64_t N, int64_t C, int64_t HxW, int64_t group, double eps, aclTensor *out,
    aclTensor *meanOut, aclTensor *rstdOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GROUP_NORM_H */
