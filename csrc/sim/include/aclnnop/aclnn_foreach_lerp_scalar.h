/* aclnnForeachLerpScalar: out[i] = x1[i] + weight * (x2[i] - x1[i]). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_LERP_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_LERP_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachLerpScalar: out[i] = x1[i] + weight * (x2[i] - x1[i]).
 * One kernel for the whole list; out may be x (the in-place form torch_npu uses).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachLerpScalarGetWorkspaceSize(const aclTensorList *x1, const aclTensorList *x2,
    const aclScalar *weight, aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachLerpScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_LERP_SCALAR_H */
