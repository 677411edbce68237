/* aclnnTanhBackward: the backward of tanh from its output. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_TANH_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_TANH_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnTanhBackward: gradInput = gradOutput * (1 - output^2), output being tanh's result (broadcast).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output,
                                                        aclTensor *gradInput, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTanhBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_TANH_BACKWARD_H */
