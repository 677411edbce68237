/* aclnnSiluBackward: the gradient of aclnnSilu. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SILU_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_SILU_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSiluBackward: gradInput = gradOutput * s(self) * (1 + self * (1 - s(self))), s the sigmoid:
 * the derivative of self * s(self); gradOutput, self and gradInput have one shape.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSiluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SILU_BACKWARD_H */
