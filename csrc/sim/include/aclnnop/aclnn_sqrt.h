/* aclnnSqrt, aclnnInplaceSqrt: out = sqrt(self), element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SQRT_H
#define NPU_SIM_ACLNNOP_ACLNN_SQRT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSqrt: out = sqrt(self) (integers and bool computed as float32).
 * aclnnInplaceSqrt: the same written to self.
 */
ACLNN_API aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **opExecutor);
ACLNN_API aclnnStatus aclnnSqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *opExecutor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceSqrtGetWorkspaceSize(aclTensor *self, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SQRT_H */
