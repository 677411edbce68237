/* aclnnMm: out = self @ mat2 for 2-D operands. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MM_H
#define NPU_SIM_ACLNNOP_ACLNN_MM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnMm: out = self @ mat2; self [m, k], mat2 [k, n] (any strides); cubeMathType is accepted and ignored.
 * Data types: float32, float16, bfloat16 (self, mat2 and out alike).
 */
ACLNN_API aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MM_H */
