/*
 * aclnnReplicationPad2d: pads the last two dimensions of self ([C, H, W] or [N, C, H, W]) with copies of
 * their edge elements (torch's replication_pad2d); padding is (left, right, top, bottom). The signature is
 * CANN's. Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD2D_H
#define NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD2D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReplicationPad2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *padding,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReplicationPad2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD2D_H */
