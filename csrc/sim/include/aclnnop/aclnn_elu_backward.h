/*
 * aclnnEluBackward: the gradient of aclnnElu from gradOutput and either its input (isResult false:
 * gradOutput * (x > 0 ? scale : alpha * scale * inputScale * exp(x * inputScale))) or its result (isResult
 * true: gradOutput * (y > 0 ? scale : inputScale * (y + alpha * scale))), torch's elu_backward.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ELU_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_ELU_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha,
    const aclScalar* scale, const aclScalar* inputScale, bool isResult, const aclTensor* selfOrResult,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ELU_BACKWARD_H */
