/*
 * aclnnUpsampleNearest2dBackward: the gradient of aclnnUpsampleNearest2d: each element of gradOut
 * ([N, C, outputSize]) added to the input element it was read from (gradInput: inputSize, four values). The signatures are CANN's.
 * Data types: float32, float16, bfloat16 (the nearest forward also the integer types).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleNearest2dBackwardGetWorkspaceSize(const aclTensor *gradOut,
    const aclIntArray *outputSize, const aclIntArray *inputSize, double scalesH, double scalesW, aclTensor *gradInput,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest2dBackward(void *workspace, uint64_t workspaceSize,
    aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_BACKWARD_H */
