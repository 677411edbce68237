/*
 * aclnnIm2col: torch's im2col (nn.Unfold) of a [N,] C, H, W self to [N,] C * kH * kW, L columns
 * (L: the number of window positions), with kernelSize, dilation, padding and stride of two values each. The signatures are CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_IM2COL_H
#define NPU_SIM_ACLNNOP_ACLNN_IM2COL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
    const aclIntArray *dilation, const aclIntArray *padding, const aclIntArray *stride, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnIm2col(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_IM2COL_H */
