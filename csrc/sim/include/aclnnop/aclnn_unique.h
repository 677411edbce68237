/*
 * aclnnUnique: torch.unique (the distinct elements, sorted, and each element's position among
 * them); valueOut's view is set to the result's length. The signatures are CANN's.
 * Data types: float32, float16, bfloat16, the integer types and bool.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_UNIQUE_H
#define NPU_SIM_ACLNNOP_ACLNN_UNIQUE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUniqueGetWorkspaceSize(const aclTensor *self, bool sorted, bool returnInverse,
    aclTensor *valueOut, aclTensor *inverseOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUnique(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_UNIQUE_H */
