/*
 * aclnnGroupNormBackward: the gradients of aclnnGroupNorm from the forward's mean and rstd ([N, group]):
 * gradInput (input's shape), gradGammaOut and gradBetaOut ([C]), each written when selected by
 * outputMask (3 values; an output not selected may be NULL). The signature is CANN's. gamma may be NULL
 * (taken as 1). Data types: float32, float16, bfloat16 (every tensor input's type).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H

#ifdef __cplusplus
#include <array> /* as CANN's header (a C++ header there) */
#endif
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *input,
    const aclTensor *mean, const aclTensor *rstd, const aclTensor *gamma, int64_t N, int64_t C, int64_t HxW,
    int64_t group, const aclBoolArray *outputMask, aclTensor *gradInput, aclTensor *gradGammaOut,
    aclTensor *gradBetaOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGroupNormBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H */
