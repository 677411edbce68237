/*
 * aclnnIndex: torch's advanced indexing self[indices]: the int32 / int64 index tensors of the list
 * (an empty tensor: that dimension is not indexed) broadcast together; their shape replaces the indexed
 * dimensions (in place when those are adjacent, in front otherwise).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_INDEX_H
#define NPU_SIM_ACLNNOP_ACLNN_INDEX_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndex(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);
ACLNN_API aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor* self, const aclTensorList* indices,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_INDEX_H */
