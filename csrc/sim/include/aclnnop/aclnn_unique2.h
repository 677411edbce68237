/*
 * aclnnUnique2: torch.unique with counts; valueOut's and countsOut's views are set to the result's
 * length. The signatures are CANN's.
 * Data types: float32, float16, bfloat16, the integer types and bool.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UNIQUE2_H
#define NPU_SIM_ACLNNOP_ACLNN_UNIQUE2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor *self, bool sorted, bool returnInverse,
    bool returnCounts, aclTensor *valueOut, aclTensor *inverseOut, aclTensor *countsOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUnique2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UNIQUE2_H */
