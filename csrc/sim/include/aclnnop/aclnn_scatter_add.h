/*
 * aclnnScatterAdd: out = self with src[i][j][k] added at out[index[i][j][k]][j][k] along dim
 * (torch.scatter_add); index int32 or int64 no larger than src; out of self's shape (may be self).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SCATTER_ADD_H
#define NPU_SIM_ACLNNOP_ACLNN_SCATTER_ADD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim,
    const aclTensor* index, const aclTensor* src, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SCATTER_ADD_H */
