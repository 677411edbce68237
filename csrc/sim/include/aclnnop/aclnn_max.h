/* aclnnMax: the largest element of a tensor. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MAX_H
#define NPU_SIM_ACLNNOP_ACLNN_MAX_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnMax: out (one element) = the largest element of self (NaN if any is NaN); self not empty.
 * Data types: float32, float16, bfloat16 (out has self's).
 */
ACLNN_API aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MAX_H */
