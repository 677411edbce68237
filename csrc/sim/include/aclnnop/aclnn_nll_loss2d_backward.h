/*
 * aclnnNLLLoss2dBackward: the gradient of aclnnNLLLoss2d: out (self's shape [N, C, H, W]) is
 * -weight[t] * g at [n, t, h, w] (g = gradOutput[n, h, w] for reduction none, gradOutput / totalWeight
 * for mean, gradOutput for sum) and 0 elsewhere. The signature is CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclTensor *target, const aclTensor *weight, int64_t reduction, int64_t ignoreIndex,
    aclTensor *totalWeight, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNLLLoss2dBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H */
