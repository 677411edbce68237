/*
 * aclnnRoll: out = x with each dimension of dims rolled by its shift (the flattened x by shifts[0] when
 * dims is empty). The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ROLL_H
#define NPU_SIM_ACLNNOP_ACLNN_ROLL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts,
    const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRoll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ROLL_H */
