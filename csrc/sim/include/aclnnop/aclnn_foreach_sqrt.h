/* aclnnForeachSqrt: out[i] = sqrt(x[i]). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_SQRT_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_SQRT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachSqrt: out[i] = sqrt(x[i]).
 * One kernel for the whole list; out may be x (the in-place form torch_npu uses).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachSqrtGetWorkspaceSize(const aclTensorList *x, aclTensorList *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachSqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_SQRT_H */
