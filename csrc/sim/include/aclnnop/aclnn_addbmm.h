/* aclnnAddbmm: out = beta * self + alpha * sum over b of batch1[b] @ batch2[b]. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ADDBMM_H
#define NPU_SIM_ACLNNOP_ACLNN_ADDBMM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnAddbmm: out = beta * self + alpha * sum_b (batch1[b] @ batch2[b]); batch1 [B, m, k], batch2
 * [B, k, n] (any strides), self broadcast to [m, n] (ignored when beta is 0); cubeMathType is
 * accepted and ignored. aclnnInplaceAddbmm writes the result into selfRef ([m, n]).
 * Data types: float32, float16, bfloat16 (every tensor alike).
 */
ACLNN_API aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
    const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, aclTensor *out, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor *selfRef, const aclTensor *batch1,
    const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceAddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ADDBMM_H */
