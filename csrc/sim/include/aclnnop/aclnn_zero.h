/* aclnnInplaceZero: sets every element of selfRef to zero. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ZERO_H
#define NPU_SIM_ACLNNOP_ACLNN_ZERO_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnInplaceZero: selfRef = 0, element-wise (strided views included).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceZero(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ZERO_H */
