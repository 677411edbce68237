/*
 * aclnnNonzero: out = the indices of the non-zero elements of self, one row per element (N x D).
 * out (int64, 2-D) is allocated at its largest; the run sets its view shape to (N, D), which the
 * caller reads with aclGetViewShape after synchronising. The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NONZERO_H
#define NPU_SIM_ACLNNOP_ACLNN_NONZERO_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNonzero(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NONZERO_H */
