/*
 * aclnnUniqueConsecutive: torch.unique_consecutive (runs of equal elements, or slices along dim,
 * collapsed); valueOut's and countsOut's views are set to the result's shape. The signatures are CANN's.
 * Data types: float32, float16, bfloat16, the integer types and bool.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H
#define NPU_SIM_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor *self, bool returnInverse,
    bool returnCounts, int64_t dim, aclTensor *valueOut, aclTensor *inverseOut, aclTensor *countsOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUniqueConsecutive(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H */
