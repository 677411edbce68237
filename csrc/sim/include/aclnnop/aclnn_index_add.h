/*
 * aclnnIndexAdd: out = self with alpha * source's slice i added to slice index[i] along dim.
 * The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_INDEX_ADD_H
#define NPU_SIM_ACLNNOP_ACLNN_INDEX_ADD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index,
    const aclTensor* source, const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_INDEX_ADD_H */
