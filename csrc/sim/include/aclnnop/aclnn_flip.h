/*
 * aclnnFlip: self with the order of its elements reversed along each dimension in dims.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FLIP_H
#define NPU_SIM_ACLNNOP_ACLNN_FLIP_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFlip(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FLIP_H */
