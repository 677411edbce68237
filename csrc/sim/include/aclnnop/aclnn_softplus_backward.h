/*
 * aclnnSoftplusBackward: gradInput = gradOutput where beta * self > threshold, else
 * gradOutput * sigmoid(beta * self). The signature is CANN's. Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SOFTPLUS_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_SOFTPLUS_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclScalar *beta, const aclScalar *threshold, aclTensor *gradInput, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftplusBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SOFTPLUS_BACKWARD_H */
