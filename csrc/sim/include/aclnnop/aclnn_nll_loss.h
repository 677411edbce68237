/* aclnnNLLLoss: the negative log-likelihood loss of class scores. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS_H
#define NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnNLLLoss: l_n = -weight[target_n] * self[n, target_n] (0 when target_n == ignoreIndex);
 * self [N, C] or [C], target [N] or [] (int64, int32, uint8), weight [C] or NULL; reduction 0 none
 * (out [N]), 1 mean (divided by the summed weights), 2 sum; totalWeightOut (one element) = the
 * summed weights. Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
    const aclTensor *weight, int64_t reduction, int64_t ignoreIndex, aclTensor *out, aclTensor *totalWeightOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNLLLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS_H */
