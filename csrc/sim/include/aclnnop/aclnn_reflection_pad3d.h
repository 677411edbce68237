/*
 * aclnnReflectionPad3d: pads the last three dimensions of self ([C, D, H, W] or [N, C, D, H, W]) by reflection (torch's reflection_pad3d); padding is (left, right, top, bottom, front, back), each smaller than the dimension it pads. The signature is CANN's.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_REFLECTION_PAD3D_H
#define NPU_SIM_ACLNNOP_ACLNN_REFLECTION_PAD3D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReflectionPad3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *padding,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReflectionPad3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_REFLECTION_PAD3D_H */
