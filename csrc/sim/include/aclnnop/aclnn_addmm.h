/* aclnnAddmm: out = beta * self + alpha * (mat1 @ mat2). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ADDMM_H
#define NPU_SIM_ACLNNOP_ACLNN_ADDMM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnAddmm: out = beta * self + alpha * (mat1 @ mat2); mat1 [m, k], mat2 [k, n] (any strides),
 * self broadcast to [m, n]; cubeMathType is accepted and ignored.
 * Data types: float32, float16, bfloat16 (mat1, mat2 and out alike).
 */
ACLNN_API aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1, const aclTensor *mat2,
    const aclScalar *beta, const aclScalar *alpha, aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAddmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ADDMM_H */
