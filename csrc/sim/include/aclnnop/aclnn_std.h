/*
 * aclnnStd: out = the standard deviation of self over the dimensions in dim (all of them when
 * dim is empty): the square root of the variance divided by max(0, N - correction). The signature is
 * CANN's. self and out: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_STD_H
#define NPU_SIM_ACLNNOP_ACLNN_STD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, const int64_t correction,
    bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnStd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_STD_H */
