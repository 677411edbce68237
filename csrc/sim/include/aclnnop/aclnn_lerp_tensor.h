/* aclnnLerp, aclnnInplaceLerp: out = self + weight * (end - self), element-wise with broadcasting. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LERP_TENSOR_H
#define NPU_SIM_ACLNNOP_ACLNN_LERP_TENSOR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLerp: out = self + weight * (end - self); self, end and weight broadcast to out.
 * aclnnInplaceLerp: the same written to selfRef (end and weight must broadcast to it).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnLerpGetWorkspaceSize(const aclTensor *self, const aclTensor *end, const aclTensor *weight,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLerp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLerpGetWorkspaceSize(aclTensor *selfRef, const aclTensor *end,
    const aclTensor *weight, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceLerp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LERP_TENSOR_H */
