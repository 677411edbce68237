/*
 * aclnnGridSampler2DBackward: the gradients of aclnnGridSampler2D for input and grid (outputMask). The signatures are CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GRID_SAMPLER2D_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_GRID_SAMPLER2D_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGridSampler2DBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *input,
    const aclTensor *grid, int64_t interpolationMode, int64_t paddingMode, bool alignCorners,
    const aclBoolArray *outputMask, aclTensor *inputGrad, aclTensor *gridGrad, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGridSampler2DBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GRID_SAMPLER2D_BACKWARD_H */
