/* aclnnForeachNorm: the norm of every tensor of a list. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachNorm: out[i] (one element, x[i]'s type) = the norm of order scalar of all of x[i].
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachNormGetWorkspaceSize(const aclTensorList *x, const aclScalar *scalar,
                                                       const aclTensorList *out, uint64_t *workspaceSize,
                                                       aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_NORM_H */
