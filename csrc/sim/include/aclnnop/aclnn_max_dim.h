/*
 * aclnnMaxDim: out = the largest element of self along dim, indices = its position (the first).
 * The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MAX_DIM_H
#define NPU_SIM_ACLNNOP_ACLNN_MAX_DIM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
    aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxDim(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MAX_DIM_H */
