/*
 * aclnnUpsampleBilinear2dBackward: the gradient of aclnnUpsampleBilinear2d: each element of gradOut
 * added to the four input elements it interpolated, with their weights (out: inputSize, four values). The signatures are CANN's.
 * Data types: float32, float16, bfloat16 (the nearest forward also the integer types).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackward(void *workspace, uint64_t workspace_size,
    aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(const aclTensor *gradOut,
    const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners, double scalesH, double scalesW,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_H */
