/* aclnnForeachNonFiniteCheckAndUnscale: unscales gradients and records whether any was inf or NaN. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachNonFiniteCheckAndUnscale: every tensor of scaledGrads is multiplied in place by invScale
 * (one float32 element); foundInf (one float32 element) is set to 1 when any element was inf or NaN.
 * Data types of scaledGrads: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(const aclTensorList *scaledGrads,
                                                                           const aclTensor *foundInf,
                                                                           const aclTensor *invScale,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachNonFiniteCheckAndUnscale(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H */
