/*
 * aclnnGluBackward: the gradient of aclnnGlu for self: gradOut * sigmoid(b) in a's half and
 * gradOut * a * sigmoid(b) * (1 - sigmoid(b)) in b's; out has self's shape. The signature is CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GLU_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_GLU_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *self, int64_t dim,
    const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GLU_BACKWARD_H */
