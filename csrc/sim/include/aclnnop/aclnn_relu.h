/* aclnnRelu: ReLU: max(x, 0), element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_RELU_H
#define NPU_SIM_ACLNNOP_ACLNN_RELU_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnRelu: ReLU: max(x, 0), element-wise.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_RELU_H */
