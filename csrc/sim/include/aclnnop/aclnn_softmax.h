/* aclnnSoftmax: softmax(self) along dim (negative dims count from the end). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SOFTMAX_H
#define NPU_SIM_ACLNNOP_ACLNN_SOFTMAX_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSoftmax: softmax(self) along dim (negative dims count from the end).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SOFTMAX_H */
