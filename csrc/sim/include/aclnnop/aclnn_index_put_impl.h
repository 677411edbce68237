/*
 * aclnnIndexPutImpl: selfRef[indices] = values (accumulate: +=), the positions as aclnnIndex's and values
 * broadcast to their shape; repeated positions accumulate, or the last write wins. unsafe has no effect.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H
#define NPU_SIM_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices,
    const aclTensor* values, const bool accumulate, const bool unsafe, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexPutImpl(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H */
