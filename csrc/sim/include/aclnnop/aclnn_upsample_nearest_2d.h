/*
 * aclnnUpsampleNearest2d: torch's upsample_nearest2d of an [N, C, H, W] self to outputSize (two
 * values): output row i reads input row floor(i * H / outH) (columns alike). The signatures are CANN's.
 * Data types: float32, float16, bfloat16 (the nearest forward also the integer types).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H
#define NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H */
