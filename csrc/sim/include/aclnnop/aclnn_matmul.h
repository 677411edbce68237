/* aclnnMatmul: Matrix product of self and mat2 (1-D to 6-D, batch dimensions broadcast); cubeMathType is accepted and ignored. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MATMUL_H
#define NPU_SIM_ACLNNOP_ACLNN_MATMUL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnMatmul: Matrix product of self and mat2 (1-D to 6-D, batch dimensions broadcast); cubeMathType is accepted and ignored.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MATMUL_H */
