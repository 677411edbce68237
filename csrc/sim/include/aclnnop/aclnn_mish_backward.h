/*
 * aclnnMishBackward: gradInput = gradOutput * d/dx [x tanh(softplus(x))] at self.
 * The signature is CANN's. Data types: float32, float16, bfloat16; gradOutput and self broadcast.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MISH_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_MISH_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMishBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMishBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MISH_BACKWARD_H */
