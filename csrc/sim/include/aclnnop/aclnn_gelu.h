/* aclnnGelu: GELU x * Phi(x), the erf form 0.5 x (1 + erf(x / sqrt(2))), element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_GELU_H
#define NPU_SIM_ACLNNOP_ACLNN_GELU_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnGelu: GELU x * Phi(x), the erf form 0.5 x (1 + erf(x / sqrt(2))), element-wise.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_GELU_H */
