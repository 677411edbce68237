/*
 * aclnnLogSumExp: out = log(sum(exp(self))) over the dimensions in dim (all of them when dim is
 * empty), computed from the largest element so that it does not overflow. The signature is CANN's.
 * self: float, integer and bool types; out: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LOGSUMEXP_H
#define NPU_SIM_ACLNNOP_ACLNN_LOGSUMEXP_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSumExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LOGSUMEXP_H */
