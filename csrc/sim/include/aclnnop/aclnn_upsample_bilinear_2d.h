/*
 * aclnnUpsampleBilinear2d: torch's upsample_bilinear2d of an [N, C, H, W] self to outputSize (two
 * values), with alignCorners and torch's scale factors (0: none). The signatures are CANN's.
 * Data types: float32, float16, bfloat16 (the nearest forward also the integer types).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H
#define NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleBilinear2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
    const bool alignCorners, const double scalesH, const double scalesW, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H */
