/*
 * aclnnVar / aclnnVarCorrection: out = the variance of self over the dimensions in dim (all of
 * them when dim is empty), the sum of squared deviations divided by N - 1 (unbiased) or N, or by
 * max(0, N - correction). The signatures are CANN's.
 * self and out: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_VAR_H
#define NPU_SIM_ACLNNOP_ACLNN_VAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool unbiased,
    bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnVar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
    int64_t correction, bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnVarCorrection(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_VAR_H */
