/*
 * aclnnMaxPool2dWithMask, aclnnMaxPool2dWithIndices: 2-d max pooling of self [N, C, H, W] or [C, H, W]
 * (kernelSize, stride, padding, dilation of 1 or 2 values; ceilMode), torch's output size and window
 * rule (the first largest value of a window; nan wins). aclnnMaxPool2dWithIndices writes the flat
 * position h * W + w of each maximum (int32 or int64); aclnnMaxPool2dWithMask writes a mask (int8, as
 * torch_npu allocates it: [N, C, kH * kW, (ceil(oH * oW / 16) + 1) * 32]) whose byte [k][p] is 1 when
 * kernel position k holds the maximum of output p (the simulator's own layout of the mask).
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H
#define NPU_SIM_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor* self,
    const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool2dWithMask(void* workspace, uint64_t workspaceSize,
    aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor* self,
    const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndices(void* workspace, uint64_t workspaceSize,
    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H */
