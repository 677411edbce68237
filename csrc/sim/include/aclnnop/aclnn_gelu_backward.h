/* aclnnGeluBackward: the gradient of aclnnGelu. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GELU_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_GELU_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnGeluBackward: gradInput = gradOutput * (Phi(self) + self * phi(self)), the derivative of
 * the erf form of GELU; gradOutput, self and gradInput have one shape.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGeluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GELU_BACKWARD_H */
