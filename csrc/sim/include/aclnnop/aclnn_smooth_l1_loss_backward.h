/*
 * aclnnSmoothL1LossBackward: gradInput = gradOut * d smooth_l1 / d self.
 * reduction: 0 none, 1 mean, 2 sum. The signature is CANN's. Tensors: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *self,
    const aclTensor *target, int64_t reduction, float beta, aclTensor *gradInput, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSmoothL1LossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H */
