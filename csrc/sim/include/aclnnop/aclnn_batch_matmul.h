/* aclnnBatchMatMul: Batched matrix product of two 3-D tensors [B, M, K] x [B, K, N] -> [B, M, N]. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BATCH_MATMUL_H
#define NPU_SIM_ACLNNOP_ACLNN_BATCH_MATMUL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnBatchMatMul: Batched matrix product of two 3-D tensors [B, M, K] x [B, K, N] -> [B, M, N].
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBatchMatMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BATCH_MATMUL_H */
