/* aclnnForeachMulScalarV2: out[i] = x[i] * scalar. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_MUL_SCALAR_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_MUL_SCALAR_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachMulScalarV2: out[i] = x[i] * scalar.
 * One kernel for the whole list; out may be x (the in-place form torch_npu uses).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachMulScalarV2GetWorkspaceSize(const aclTensorList *x, const aclScalar *scalar,
    aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachMulScalarV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_MUL_SCALAR_V2_H */
