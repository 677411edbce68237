/*
 * aclnnAmax: out = the largest element of self over the dimensions in dim (all of them when dim
 * is empty); keepDim keeps the reduced dimensions as 1. The signature is CANN's.
 * self: float, integer and bool types; out: self's type.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_AMAX_H
#define NPU_SIM_ACLNNOP_ACLNN_AMAX_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_AMAX_H */
