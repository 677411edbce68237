/* aclnnBaddbmm: out = beta * self + alpha * (batch1 @ batch2), batch by batch. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BADDBMM_H
#define NPU_SIM_ACLNNOP_ACLNN_BADDBMM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnBaddbmm: out[b] = beta * self + alpha * (batch1[b] @ batch2[b]); batch1 [B, m, k], batch2
 * [B, k, n] (any strides), self broadcast to [B, m, n] (ignored when beta is 0); cubeMathType is
 * accepted and ignored. aclnnInplaceBaddbmm writes the result into selfRef ([B, m, n]).
 * Data types: float32, float16, bfloat16 (every tensor alike).
 */
ACLNN_API aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
    const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, aclTensor *out, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBaddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *batch1,
    const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBaddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BADDBMM_H */
