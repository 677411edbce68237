/* aclnnSoftmaxBackward: the gradient of aclnnSoftmax. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H

#ifdef __cplusplus
#include <array> /* as CANN's header (a C++ header there) */
#endif
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSoftmaxBackward: out = output * (gradOutput - sum_dim(gradOutput * output)), output the
 * forward's softmax along dim; gradOutput, output and out have one shape.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output,
    int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftmaxBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H */
