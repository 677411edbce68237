/* aclnnNLLLossBackward: the gradient of aclnnNLLLoss with respect to self. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnNLLLossBackward: out[n, target_n] = -weight[target_n] * g, g = gradOutput[n] (reduction 0),
 * gradOutput / totalWeight (1, mean) or gradOutput (2, sum); every other element 0.
 * Data types: float32, float16, bfloat16; out has self's shape.
 */
ACLNN_API aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclTensor *target, const aclTensor *weight, int64_t reduction, int64_t ignoreIndex,
    const aclTensor *totalWeight, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNLLLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H */
