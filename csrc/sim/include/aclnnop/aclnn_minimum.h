/*
 * aclnnMinimum: the smaller of self and other (nan when either is nan), broadcast, types promoted.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MINIMUM_H
#define NPU_SIM_ACLNNOP_ACLNN_MINIMUM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMinimum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MINIMUM_H */
