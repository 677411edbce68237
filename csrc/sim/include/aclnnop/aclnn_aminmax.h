/*
 * aclnnAminmax: torch.aminmax: the smallest and the largest elements over dim (every dimension when
 * empty), into minOut and maxOut. The signatures are CANN's.
 * Data types: float32, float16, bfloat16, the integer types and bool.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_AMINMAX_H
#define NPU_SIM_ACLNNOP_ACLNN_AMINMAX_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
    aclTensor *minOut, aclTensor *maxOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAminmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_AMINMAX_H */
