/*
 * aclnnSoftplus: out = self where beta * self > threshold, else ln(1 + exp(beta * self)) / beta
 * (torch.nn.functional.softplus). The signature is CANN's. Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SOFTPLUS_H
#define NPU_SIM_ACLNNOP_ACLNN_SOFTPLUS_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor *self, const aclScalar *beta,
    const aclScalar *threshold, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftplus(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SOFTPLUS_H */
