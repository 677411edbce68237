/* aclnnForeachAddcdivScalarV2: out[i] = x1[i] + scalar * x2[i] / x3[i]. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachAddcdivScalarV2: out[i] = x1[i] + scalar * x2[i] / x3[i].
 * One kernel for the whole list; out may be x (the in-place form torch_npu uses).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachAddcdivScalarV2GetWorkspaceSize(const aclTensorList *x1, const aclTensorList *x2,
    const aclTensorList *x3, const aclScalar *scalar, aclTensorList *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachAddcdivScalarV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_V2_H */
