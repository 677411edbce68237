/*
 * aclnnBinaryCrossEntropyWithLogits: binary cross-entropy of sigmoid(self), computed from the logits;
 * weightOptional and posWeightOptional may be NULL. reduction: 0 none, 1 mean, 2 sum. The signature is
 * CANN's. Tensors: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H
#define NPU_SIM_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor *self,
    const aclTensor *target, const aclTensor *weightOptional, const aclTensor *posWeightOptional, int64_t reduction,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogits(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H */
