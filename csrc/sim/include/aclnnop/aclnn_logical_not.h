/* aclnnLogicalNot: out = !self, element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LOGICAL_NOT_H
#define NPU_SIM_ACLNNOP_ACLNN_LOGICAL_NOT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLogicalNot: out = (self == 0); out (self's shape) of any type receives 1 or 0.
 * aclnnInplaceLogicalNot: selfRef = (selfRef == 0), as 1 or 0 in selfRef's type.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogicalNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceLogicalNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LOGICAL_NOT_H */
