/* aclnnSilu: SiLU: x * sigmoid(x), element-wise. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SILU_H
#define NPU_SIM_ACLNNOP_ACLNN_SILU_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSilu: SiLU: x * sigmoid(x), element-wise.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSilu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SILU_H */
