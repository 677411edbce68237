/*
 * aclnnSWhere: self where condition (bool or uint8) is non-zero, else other; the three broadcast,
 * self and other promoted (torch.where).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_S_WHERE_H
#define NPU_SIM_ACLNNOP_ACLNN_S_WHERE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self,
    const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSWhere(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_S_WHERE_H */
