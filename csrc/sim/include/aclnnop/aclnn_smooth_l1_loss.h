/*
 * aclnnSmoothL1Loss: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = self - target).
 * reduction: 0 none, 1 mean, 2 sum. The signature is CANN's. Tensors: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_H
#define NPU_SIM_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
    int64_t reduction, float beta, aclTensor *result, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSmoothL1Loss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_H */
