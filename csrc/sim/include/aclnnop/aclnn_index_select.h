/*
 * aclnnIndexSelect: out = the slices of self along dim that index (int32 / int64) names.
 * The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_INDEX_SELECT_H
#define NPU_SIM_ACLNNOP_ACLNN_INDEX_SELECT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_INDEX_SELECT_H */
