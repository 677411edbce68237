/*
 * aclnnVarMean: varOut and meanOut = the variance (divided by max(0, N - correction)) and the
 * mean of self over the dimensions in dim (all of them when dim is empty). The signature is CANN's.
 * self and the outputs: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_VAR_MEAN_H
#define NPU_SIM_ACLNNOP_ACLNN_VAR_MEAN_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
    bool keepdim, aclTensor *varOut, aclTensor *meanOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnVarMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_VAR_MEAN_H */
