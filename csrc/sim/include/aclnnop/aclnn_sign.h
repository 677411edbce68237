/*
 * aclnnSign: element-wise -1, 0 or 1 by the sign of self.
 * The signatures are CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SIGN_H
#define NPU_SIM_ACLNNOP_ACLNN_SIGN_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SIGN_H */
