/* aclnnLerps, aclnnInplaceLerps: out = self + weight * (end - self) with a scalar weight. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LERP_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_LERP_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLerps: out = self + weight * (end - self); self and end broadcast to out.
 * aclnnInplaceLerps: the same written to selfRef.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnLerpsGetWorkspaceSize(const aclTensor *self, const aclTensor *end, const aclScalar *weight,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLerps(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLerpsGetWorkspaceSize(aclTensor *selfRef, const aclTensor *end,
    const aclScalar *weight, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceLerps(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LERP_SCALAR_H */
