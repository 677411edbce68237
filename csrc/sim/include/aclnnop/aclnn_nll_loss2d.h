/*
 * aclnnNLLLoss2d: the negative log-likelihood loss of per-pixel class scores (torch's nll_loss2d):
 * self [N, C, H, W], target [N, H, W] (int64, int32, uint8), weight [C] or NULL;
 * l_nhw = -weight[t] * self[n, t, h, w] with t = target[n, h, w] (0 when t == ignoreIndex);
 * reduction 0 none (out [N, H, W]), 1 mean (divided by the summed weights), 2 sum;
 * totalWeightOut (one element) = the summed weights. The signature is CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS2D_H
#define NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS2D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
    const aclTensor *weight, int64_t reduction, int64_t ignoreIndex, aclTensor *out, aclTensor *totalWeightOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNLLLoss2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS2D_H */
