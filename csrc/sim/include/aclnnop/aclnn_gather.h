/*
 * aclnnGather: out[i][j][k] = self[index[i][j][k]][j][k] along dim (torch.gather); index int32 or int64
 * of self's rank, out of index's shape.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GATHER_H
#define NPU_SIM_ACLNNOP_ACLNN_GATHER_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim,
    const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGather(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GATHER_H */
