/*
 * aclnnMaskedSelect: out = the elements of self where mask is true (self and mask broadcast),
 * 1-D; the run sets out's view shape to the count selected, which the caller reads with
 * aclGetViewShape after synchronising. The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MASKED_SELECT_H
#define NPU_SIM_ACLNNOP_ACLNN_MASKED_SELECT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor *self, const aclTensor *mask, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaskedSelect(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MASKED_SELECT_H */
