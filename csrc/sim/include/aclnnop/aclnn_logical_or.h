/*
 * aclnnLogicalOr, aclnnInplaceLogicalOr: whether either of self and other are non-zero, as 0 / 1 in out's type.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LOGICAL_OR_H
#define NPU_SIM_ACLNNOP_ACLNN_LOGICAL_OR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogicalOr(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceLogicalOr(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LOGICAL_OR_H */
