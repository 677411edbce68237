/*
 * aclnnUpsampleNearest2dV2: aclnnUpsampleNearest2d with torch's scale factors: a scale above 0 sets
 * the step to 1 / scale, otherwise H / outH. The signatures are CANN's.
 * Data types: float32, float16, bfloat16 (the nearest forward also the integer types).
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
    float scalesH, float scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest2dV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H */
