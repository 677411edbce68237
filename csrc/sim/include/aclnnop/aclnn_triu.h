/* aclnnTriu, aclnnInplaceTriu: the upper triangle of the last two dimensions (j - i >= diagonal), zeros elsewhere. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_TRIU_H
#define NPU_SIM_ACLNNOP_ACLNN_TRIU_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnTriu: out[..., i, j] = self[..., i, j] where j - i >= diagonal, 0 elsewhere; self has at least 2 dimensions
 * and out its shape and type. aclnnInplaceTriu: the same written to selfRef.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnTriuGetWorkspaceSize(
    const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTriu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceTriuGetWorkspaceSize(
    aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnInplaceTriu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_TRIU_H */
