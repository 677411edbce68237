/*
 * aclnnAvgPool2d: 2-d average pooling of self [N, C, H, W] or [C, H, W], torch's avg_pool2d: the window's
 * sum divided by divisorOverride when it is not 0, else by the window's size (countIncludePad: padding
 * included); cubeMathType is accepted and has no effect.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_AVGPOOL2D_H
#define NPU_SIM_ACLNNOP_ACLNN_AVGPOOL2D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* strides, const aclIntArray* paddings, const bool ceilMode, const bool countIncludePad,
    const int64_t divisorOverride, const int8_t cubeMathType, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAvgPool2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_AVGPOOL2D_H */
