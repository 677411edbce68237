/*
 * aclnnReplicationPad3d: pads the last three dimensions of self ([C, D, H, W] or [N, C, D, H, W]) with copies of their edge elements (torch's replication_pad3d); padding is (left, right, top, bottom, front, back). The signature is CANN's.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD3D_H
#define NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD3D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReplicationPad3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *padding,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReplicationPad3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD3D_H */
