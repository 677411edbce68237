/*
 * aclnnAny: out = whether any element of self over the dimensions in dim (all of them when dim is
 * empty) is non-zero; keepdim keeps the reduced dimensions as 1. The signature is CANN's.
 * self: float, integer and bool types; out: bool or uint8 (1 or 0).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ANY_H
#define NPU_SIM_ACLNNOP_ACLNN_ANY_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAny(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ANY_H */
