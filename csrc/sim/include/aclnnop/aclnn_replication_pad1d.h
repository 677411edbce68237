/*
 * aclnnReplicationPad1d: pads the last dimension of self ([C, W] or [N, C, W]) with copies of their edge elements (torch's replication_pad1d); padding is (left, right). The signature is CANN's.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD1D_H
#define NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD1D_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReplicationPad1dGetWorkspaceSize(const aclTensor *self, const aclIntArray *padding,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReplicationPad1d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_REPLICATION_PAD1D_H */
