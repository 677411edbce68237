/* aclnnLogSoftmax / aclnnLogSoftmaxBackward: log(softmax) along one dimension and its gradient. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LOG_SOFTMAX_H
#define NPU_SIM_ACLNNOP_ACLNN_LOG_SOFTMAX_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLogSoftmax: out = self - log(sum_dim(exp(self))), computed stably.
 * Data types: float32, float16, bfloat16; out has self's shape.
 */
ACLNN_API aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnLogSoftmaxBackward: out = gradOutput - exp(output) * sum_dim(gradOutput), output the forward's result.
 * Data types: float32, float16, bfloat16; gradOutput, output and out have one shape.
 */
ACLNN_API aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output,
    int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSoftmaxBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LOG_SOFTMAX_H */
