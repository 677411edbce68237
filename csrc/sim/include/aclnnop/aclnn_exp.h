/* aclnnExp: out = exp(self), element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_EXP_H
#define NPU_SIM_ACLNNOP_ACLNN_EXP_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnExp: out = exp(self), element-wise.
 * Data types: float32, float16, bfloat16; out has self's shape (another float type gets a Cast).
 */
ACLNN_API aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor *self, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_EXP_H */
