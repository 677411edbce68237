/*
 * aclnnHistc: torch.histc: the counts of self's elements in bins equal bins over [min, max], into out
 * ([bins], of self's type). The signatures are CANN's.
 * Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_HISTC_H
#define NPU_SIM_ACLNNOP_ACLNN_HISTC_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor *self, int64_t bins, const aclScalar *min,
    const aclScalar *max, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnHistc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_HISTC_H */
