/*
 * aclnnMish, aclnnInplaceMish: out = self * tanh(ln(1 + exp(self))) (torch.nn.functional.mish).
 * The signatures are CANN's. Data types: float32, float16, bfloat16; computed in double, rounded once.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MISH_H
#define NPU_SIM_ACLNNOP_ACLNN_MISH_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceMishGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MISH_H */
