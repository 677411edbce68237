/*
 * aclnnBitwiseNot: out = ~self: the complement of each bit of an integer, the negation of a bool.
 * The signature is CANN's. Data types: int8, uint8, int16, int32, int64, bool (out self's type).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BITWISE_NOT_H
#define NPU_SIM_ACLNNOP_ACLNN_BITWISE_NOT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BITWISE_NOT_H */
