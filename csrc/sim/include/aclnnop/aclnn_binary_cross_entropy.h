/*
 * aclnnBinaryCrossEntropy: -weight (target log self + (1 - target) log(1 - self)); weight may be
 * NULL. reduction: 0 none, 1 mean, 2 sum. The signature is CANN's. Tensors: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H
#define NPU_SIM_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
    const aclTensor *weight, int64_t reduction, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H */
