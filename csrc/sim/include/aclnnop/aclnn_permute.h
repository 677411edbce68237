/* aclnnPermute: Reorders the dimensions of self: out.dim(i) = self.dim(dims[i]). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_PERMUTE_H
#define NPU_SIM_ACLNNOP_ACLNN_PERMUTE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnPermute: Reorders the dimensions of self: out.dim(i) = self.dim(dims[i]).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPermute(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_PERMUTE_H */
