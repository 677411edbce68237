/*
 * aclnnOneHot: out = onValue where self's value equals the position along the inserted dimension
 * of numClasses (at axis), offValue elsewhere. The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ONE_HOT_H
#define NPU_SIM_ACLNNOP_ACLNN_ONE_HOT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue,
    const aclTensor* offValue, int64_t axis, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnOneHot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ONE_HOT_H */
