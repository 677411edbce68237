/*
 * aclnnGridSampler2D: torch's grid_sampler_2d (F.grid_sample of a 4-D input): input sampled at
 * grid's positions (interpolationMode 0 bilinear, 1 nearest; paddingMode 0 zeros, 1 border, 2 reflection). The signatures are CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GRID_SAMPLER2D_H
#define NPU_SIM_ACLNNOP_ACLNN_GRID_SAMPLER2D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGridSampler2DGetWorkspaceSize(const aclTensor *input, const aclTensor *grid,
    int64_t interpolationMode, int64_t paddingMode, bool alignCorners, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGridSampler2D(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GRID_SAMPLER2D_H */
