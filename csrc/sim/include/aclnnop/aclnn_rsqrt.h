/*
 * aclnnRsqrt, aclnnInplaceRsqrt: out = 1 / sqrt(self) (inf at 0, nan below 0).
 * The signatures are CANN's. aclnnRsqrt takes float, integer and bool tensors (integers and bool computed
 * as float32); aclnnInplaceRsqrt float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_RSQRT_H
#define NPU_SIM_ACLNNOP_ACLNN_RSQRT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRsqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceRsqrtGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRsqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_RSQRT_H */
