/* aclnnSigmoid: out = 1 / (1 + exp(-self)), element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SIGMOID_H
#define NPU_SIM_ACLNNOP_ACLNN_SIGMOID_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSigmoid: out = 1 / (1 + exp(-self)), element-wise.
 * Data types: float32, float16, bfloat16; out has self's shape (another float type gets a Cast).
 */
ACLNN_API aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SIGMOID_H */
