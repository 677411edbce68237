/* aclnnMseLoss: the mean squared error of self and target. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MSE_LOSS_H
#define NPU_SIM_ACLNNOP_ACLNN_MSE_LOSS_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnMseLoss: (self - target)^2, self and target broadcast; reduction 0 none (out has the
 * broadcast shape), 1 mean, 2 sum (out is 0-D).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMseLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MSE_LOSS_H */
