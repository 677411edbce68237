/* aclnnMseLossBackward: the gradient of aclnnMseLoss with respect to self. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnMseLossBackward: gradInput = gradOutput * 2 (self - target) (divided by the element count
 * for reduction 1, mean); gradOutput broadcast to the shape of self and target.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclTensor *target, int64_t reduction, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMseLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H */
