/* aclnnThresholdBackward: out = gradOutput where self > threshold, else 0 (ReLU backward). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_THRESHOLD_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_THRESHOLD_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnThresholdBackward: out = gradOutput where self > threshold, 0 elsewhere (torch's
 * threshold_backward, the backward of ReLU), with broadcasting.
 * Data types: float32, float16, bfloat16, int8, uint8, int32, int64.
 */
ACLNN_API aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclScalar *threshold, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnThresholdBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_THRESHOLD_BACKWARD_H */
